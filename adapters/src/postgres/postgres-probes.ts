/**
 * The live probes as the catalog holds them (docs/fleet.md "Probes"): the
 * probes' heartbeats (fleet_probes), their sessions (probe_sessions), what
 * the sessions publish (probe_findings, probe_statistics,
 * probe_track_points) and the hub's commands to them (probe_commands).
 *
 * A probe writes its records in batches (writeProbeBatch), each in one
 * statement under an advisory lock ('klvp', 0x6b6c7670), so the ids of the
 * rows are given and committed in one order across every probe: a reader that has read up to
 * id N never sees a row below N committed later, and follows every table
 * with one number. Each batch ends with a NOTIFY on PROBE_EVENTS_CHANNEL.
 */
import type { SqlRunner, PostgresConnection } from './postgres-connection.js';

/** Told after each batch of records; the payload is the probe's name. */
export const PROBE_EVENTS_CHANNEL = 'klvscope_probe_events';
/** Told when a command is queued for a probe; the payload is the probe's name. */
export const PROBE_COMMANDS_CHANNEL = 'klvscope_probe_commands';
/** Told when a probe has carried out a command; the payload is the command's id. */
export const PROBE_COMMAND_DONE_CHANNEL = 'klvscope_probe_command_done';

/** Heartbeats are stamped and judged by one clock, the database server's, whatever the probes' clocks say. */
const SERVER_NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

export interface ProbeRow {
  name: string;
  /** This run of the probe process (a restarted probe takes its name over with a new one). */
  instance: string;
  host: string;
  pid: number;
  version: string;
  startedMs: number;
  heartbeatMs: number;
  stoppedMs: number | null;
  /** What the probe holds, not yet written (the database was unreachable). */
  bufferedBytes: number;
  bufferLimitBytes: number;
  /** Records the probe had to drop since it started, by kind (findings, statistics, track). */
  dropped: Record<string, number>;
}

export interface ProbeSessionRow {
  id: string;
  probe: string;
  source: string;
  status: string;
  /** How many times the session was started: 1, and one more each time a restarted probe resumed it. */
  run: number;
  createdMs: number;
  updatedMs: number;
  stoppedMs: number | null;
  /** The session's state as the probe last wrote it (LiveSessionState and the probe's additions), JSON. */
  state: unknown;
}

export type ProbeEventKind = 'findings' | 'statistics' | 'track';

/** One published record: a finding, a statistics reading or a track point; `body` is the record as JSON. */
export interface ProbeEventRow {
  sessionId: string;
  run: number;
  seq: number;
  body: string;
  /** Findings only. */
  checkId?: string;
  severity?: string;
}

export interface StoredProbeEvent extends ProbeEventRow {
  id: number;
  probe: string;
}

export interface ProbeBatch {
  findings: readonly ProbeEventRow[];
  statistics: readonly ProbeEventRow[];
  track: readonly ProbeEventRow[];
  /** The sessions whose state changed since the last batch. */
  sessions: readonly ProbeSessionRow[];
}

const EVENT_TABLES: Record<ProbeEventKind, string> = { findings: 'probe_findings', statistics: 'probe_statistics', track: 'probe_track_points' };

/**
 * Takes the name for this instance: a new name, one stopped, one whose
 * heartbeat is older than `staleMs` (server clock), or this instance's own.
 * False when another instance of the name is alive.
 */
export async function claimProbeName(db: SqlRunner, probe: Omit<ProbeRow, 'heartbeatMs' | 'stoppedMs' | 'bufferedBytes' | 'dropped'>, staleMs: number): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO fleet_probes AS p (name, instance, host, pid, version, started_ms, heartbeat_ms, buffer_limit_bytes)
     VALUES ($1, $2, $3, $4, $5, $6, ${SERVER_NOW_MS}, $7)
     ON CONFLICT (name) DO UPDATE SET instance = EXCLUDED.instance, host = EXCLUDED.host, pid = EXCLUDED.pid, version = EXCLUDED.version,
       started_ms = EXCLUDED.started_ms, heartbeat_ms = EXCLUDED.heartbeat_ms, stopped_ms = NULL, buffered_bytes = 0,
       buffer_limit_bytes = EXCLUDED.buffer_limit_bytes, dropped = '{}'
     WHERE p.stopped_ms IS NOT NULL OR p.heartbeat_ms < ${SERVER_NOW_MS} - $8 OR p.instance = EXCLUDED.instance
     RETURNING name`,
    [probe.name, probe.instance, probe.host, probe.pid, probe.version, probe.startedMs, probe.bufferLimitBytes, staleMs],
  );
  return rows.length === 1;
}

/** False when the name is no longer this instance's (another took it over while this one was cut off). */
export async function beatProbe(db: SqlRunner, name: string, instance: string, beat: Pick<ProbeRow, 'bufferedBytes' | 'dropped'>): Promise<boolean> {
  const rows = await db.query(`UPDATE fleet_probes SET heartbeat_ms = ${SERVER_NOW_MS}, buffered_bytes = $3, dropped = $4 WHERE name = $1 AND instance = $2 RETURNING name`, [
    name,
    instance,
    beat.bufferedBytes,
    JSON.stringify(beat.dropped),
  ]);
  return rows.length === 1;
}

export async function stopProbe(db: SqlRunner, name: string, instance: string): Promise<void> {
  await db.query(`UPDATE fleet_probes SET stopped_ms = ${SERVER_NOW_MS} WHERE name = $1 AND instance = $2`, [name, instance]);
}

export async function listProbes(db: SqlRunner): Promise<ProbeRow[]> {
  const rows = await db.query<Record<string, unknown>>('SELECT * FROM fleet_probes ORDER BY name');
  return rows.map((row) => ({
    name: row.name as string,
    instance: row.instance as string,
    host: row.host as string,
    pid: row.pid as number,
    version: row.version as string,
    startedMs: row.started_ms as number,
    heartbeatMs: row.heartbeat_ms as number,
    stoppedMs: row.stopped_ms as number | null,
    bufferedBytes: row.buffered_bytes as number,
    bufferLimitBytes: row.buffer_limit_bytes as number,
    dropped: JSON.parse(row.dropped as string) as Record<string, number>,
  }));
}

/** The database server's clock (ms since the epoch), by which heartbeats are judged. */
export async function serverNowMs(db: SqlRunner): Promise<number> {
  const [row] = await db.query<{ now: number }>(`SELECT ${SERVER_NOW_MS} AS now`);
  return Number(row.now);
}

/** The sessions of a probe (all probes when null), oldest first. */
export async function listProbeSessions(db: SqlRunner, probe: string | null = null): Promise<ProbeSessionRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    'SELECT * FROM probe_sessions WHERE $1::text IS NULL OR probe = $1 ORDER BY created_ms, id',
    [probe],
  );
  return rows.map(sessionFrom);
}

export async function getProbeSession(db: SqlRunner, id: string): Promise<ProbeSessionRow | undefined> {
  const [row] = await db.query<Record<string, unknown>>('SELECT * FROM probe_sessions WHERE id = $1', [id]);
  return row === undefined ? undefined : sessionFrom(row);
}

function sessionFrom(row: Record<string, unknown>): ProbeSessionRow {
  return {
    id: row.id as string,
    probe: row.probe as string,
    source: row.source as string,
    status: row.status as string,
    run: row.run as number,
    createdMs: row.created_ms as number,
    updatedMs: row.updated_ms as number,
    stoppedMs: row.stopped_ms as number | null,
    state: JSON.parse(row.state as string) as unknown,
  };
}

/**
 * Writes a probe's batch and announces it, in one statement (one
 * transaction, one round trip: the function of migration 3). A record
 * already stored (a batch whose commit was not acknowledged, sent again) is
 * skipped, so a redelivery stores nothing twice.
 */
export async function writeProbeBatch(db: SqlRunner, probe: string, batch: ProbeBatch): Promise<void> {
  await db.query('SELECT klvscope_write_probe_batch($1, $2::jsonb)', [probe, JSON.stringify(batch)]);
}

export interface ProbeEventQuery {
  /** Only rows above this id (default 0: from the first). */
  afterId?: number;
  limit: number;
  sessionId?: string;
  /** Skip this many rows (paged reads of a session's history). */
  offset?: number;
  /** Findings only: those of this check. */
  checkId?: string;
}

/** Stored records of one kind, in id order. */
export async function readProbeEvents(db: SqlRunner, kind: ProbeEventKind, query: ProbeEventQuery): Promise<StoredProbeEvent[]> {
  const findings = kind === 'findings';
  const rows = await db.query<Record<string, unknown>>(
    `SELECT id, probe, session_id, run, seq, body${findings ? ', check_id, severity' : ''} FROM ${EVENT_TABLES[kind]}
     WHERE id > $1 AND ($2::text IS NULL OR session_id = $2)${findings ? ' AND ($5::text IS NULL OR check_id = $5)' : ''} ORDER BY id LIMIT $3 OFFSET $4`,
    [query.afterId ?? 0, query.sessionId ?? null, query.limit, query.offset ?? 0, ...(findings ? [query.checkId ?? null] : [])],
  );
  return rows.map((row) => ({
    id: row.id as number,
    probe: row.probe as string,
    sessionId: row.session_id as string,
    run: row.run as number,
    seq: row.seq as number,
    body: row.body as string,
    ...(findings ? { checkId: row.check_id as string, severity: row.severity as string } : {}),
  }));
}

/** How many findings a session has stored (of one check when given). */
export async function countProbeFindings(db: SqlRunner, sessionId: string, checkId?: string): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM probe_findings WHERE session_id = $1 AND ($2::text IS NULL OR check_id = $2)', [sessionId, checkId ?? null]);
  return row.n;
}

/** The highest id of each kind now: where a reader that wants only what comes next starts. */
export async function latestProbeEventIds(db: SqlRunner): Promise<Record<ProbeEventKind, number>> {
  const [row] = await db.query<Record<string, number>>(
    `SELECT (SELECT coalesce(max(id), 0) FROM probe_findings) AS findings, (SELECT coalesce(max(id), 0) FROM probe_statistics) AS statistics,
            (SELECT coalesce(max(id), 0) FROM probe_track_points) AS track`,
  );
  return { findings: Number(row.findings), statistics: Number(row.statistics), track: Number(row.track) };
}

/** The latest `perSession` records of one kind of each of these sessions, oldest first (what the hub shows when it starts). */
export async function recentProbeEvents(db: SqlRunner, kind: 'statistics' | 'findings', sessionIds: readonly string[], perSession: number): Promise<StoredProbeEvent[]> {
  if (sessionIds.length === 0) return [];
  const rows = await db.query<Record<string, unknown>>(
    `SELECT r.* FROM unnest($1::text[]) AS s(id), LATERAL (
       SELECT id, probe, session_id, run, seq, body FROM ${EVENT_TABLES[kind]} WHERE session_id = s.id ORDER BY id DESC LIMIT $2
     ) AS r ORDER BY r.id`,
    [sessionIds, perSession],
  );
  return rows.map((row) => ({ id: row.id as number, probe: row.probe as string, sessionId: row.session_id as string, run: row.run as number, seq: row.seq as number, body: row.body as string }));
}

export interface ProbeCommandRow {
  id: number;
  probe: string;
  kind: string;
  body: unknown;
  createdMs: number;
  claimedMs: number | null;
  doneMs: number | null;
  result: unknown;
  error: string | null;
}

/** Leaves a command for a probe and tells it; answers the command's id. */
export async function queueProbeCommand(db: PostgresConnection, probe: string, kind: string, body: unknown): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>('INSERT INTO probe_commands (probe, kind, body, created_ms) VALUES ($1, $2, $3, $4) RETURNING id', [probe, kind, JSON.stringify(body), Date.now()]);
    await tx.query('SELECT pg_notify($1, $2)', [PROBE_COMMANDS_CHANNEL, probe]);
    return row.id;
  });
}

/** The commands waiting for this probe, now claimed by it, oldest first. */
export async function claimProbeCommands(db: SqlRunner, probe: string): Promise<ProbeCommandRow[]> {
  const rows = await db.query<Record<string, unknown>>(
    'UPDATE probe_commands SET claimed_ms = $2 WHERE probe = $1 AND claimed_ms IS NULL RETURNING *',
    [probe, Date.now()],
  );
  return rows.map(commandFrom).sort((a, b) => a.id - b.id);
}

export async function finishProbeCommand(db: PostgresConnection, id: number, outcome: { result: unknown } | { error: string }): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('UPDATE probe_commands SET done_ms = $2, result = $3, error = $4 WHERE id = $1', [
      id,
      Date.now(),
      'result' in outcome ? JSON.stringify(outcome.result) : null,
      'error' in outcome ? outcome.error : null,
    ]);
    await tx.query('SELECT pg_notify($1, $2)', [PROBE_COMMAND_DONE_CHANNEL, String(id)]);
  });
}

export async function getProbeCommand(db: SqlRunner, id: number): Promise<ProbeCommandRow | undefined> {
  const [row] = await db.query<Record<string, unknown>>('SELECT * FROM probe_commands WHERE id = $1', [id]);
  return row === undefined ? undefined : commandFrom(row);
}

function commandFrom(row: Record<string, unknown>): ProbeCommandRow {
  return {
    id: row.id as number,
    probe: row.probe as string,
    kind: row.kind as string,
    body: JSON.parse(row.body as string) as unknown,
    createdMs: row.created_ms as number,
    claimedMs: row.claimed_ms as number | null,
    doneMs: row.done_ms as number | null,
    result: row.result === null ? null : (JSON.parse(row.result as string) as unknown),
    error: row.error as string | null,
  };
}
