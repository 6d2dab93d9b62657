/**
 * The hub: the inspection service started with `--catalog` shows every
 * probe of the fleet and its sessions (docs/fleet.md "Probes"). It LISTENs
 * for the probes' batches and reads each new record from the catalog once,
 * into a log per kind that the live channel's fleet subscriptions follow
 * (fleet-event-log.ts); a follower that comes back after a while, or after
 * the hub restarted, reads what it missed from the catalog. Every second,
 * and whenever asked, it reads the probes' heartbeats and their sessions:
 * a probe whose heartbeat is older than OFFLINE_AFTER_MS is offline, and
 * its running sessions unknown. Commands go to the probes through the
 * catalog (probe_commands and NOTIFY), so a probe needs no open port.
 */
import {
  countProbeFindings,
  getProbeCommand,
  getProbeSession,
  latestProbeEventIds,
  listProbes,
  listProbeSessions,
  PostgresListener,
  PROBE_COMMAND_DONE_CHANNEL,
  PROBE_EVENTS_CHANNEL,
  queueProbeCommand,
  readProbeEvents,
  recentProbeEvents,
  serverNowMs,
  type PostgresConnection,
  type ProbeEventKind,
  type ProbeRow,
  type ProbeSessionRow,
  type StoredProbeEvent,
} from '@klvscope/adapters/postgres';
import { AdapterError } from '@klvscope/adapters';
import type { Logger } from '@klvscope/core';
import { FleetError } from '../fleet/fleet-error.js';
import type { LiveFinding, LiveSessionState } from '../live/live-records.js';
import { Waiters } from '../live/waiters.js';
import { FleetEventLog } from './fleet-event-log.js';
import { OFFLINE_AFTER_MS } from './probe-node.js';
import type { ProbeFinding, ProbeSessionView, ProbeStatistics, ProbeTrackPoint, ProbeView } from './probe-records.js';
import { isEndedStatus, sessionLight } from './session-light.js';

/** Readings kept per session for its sparkline: two minutes. */
const SPARKLINE_READINGS = 120;
/** How long the hub waits for a probe to carry out a command. */
export const COMMAND_TIMEOUT_MS = 10_000;
/** Ended sessions stay on the overview this long. */
const ENDED_SHOWN_MS = 24 * 3_600_000;
/** Records read from the catalog per query. */
const READ_PAGE = 2_000;

interface SessionSummary {
  sparkline: number[];
  bitsPerSecond: number | null;
  lastFinding: ProbeSessionView['lastFinding'];
  lastErrorAt: number | null;
  lastWarningAt: number | null;
}

export interface FleetFilter {
  probes?: readonly string[];
  sessionIds?: readonly string[];
}

export class ProbeHub {
  readonly findings: FleetEventLog<ProbeFinding>;
  readonly statistics: FleetEventLog<ProbeStatistics>;
  readonly track: FleetEventLog<ProbeTrackPoint>;
  private readonly summaries = new Map<string, SessionSummary>();
  private probeRows: ProbeRow[] = [];
  private sessionRows: ProbeSessionRow[] = [];
  /** The database's clock minus ours, from the last refresh: heartbeats are judged on the database's clock. */
  private clockOffsetMs = 0;
  private listener: PostgresListener | null = null;
  private pulling: Promise<void> | null = null;
  private pullAgain = false;
  private readonly timer: NodeJS.Timeout;
  private readonly commandsDone = new Waiters();
  private closed = false;

  private constructor(
    private readonly connection: PostgresConnection,
    start: Record<ProbeEventKind, number>,
    private readonly log: Logger,
  ) {
    const backfill =
      <T>(kind: ProbeEventKind, decode: (row: StoredProbeEvent) => T) =>
      async (afterId: number, limit: number): Promise<T[]> =>
        (await readProbeEvents(connection, kind, { afterId, limit })).map(decode);
    this.findings = new FleetEventLog(10_000, start.findings, backfill('findings', decodeRecord<ProbeFinding>));
    this.statistics = new FleetEventLog(3_000, start.statistics, backfill('statistics', decodeRecord<ProbeStatistics>));
    this.track = new FleetEventLog(3_000, start.track, backfill('track', decodeRecord<ProbeTrackPoint>));
    this.timer = setInterval(() => {
      void this.refresh().catch(() => undefined);
      // Also without a notification: one sent while the listener was reconnecting is not kept for it.
      void this.pull();
    }, 1_000);
    this.timer.unref();
  }

  /** Starts following the fleet's probes: new records from now on, the sessions' recent readings for their tiles. */
  static async start(connection: PostgresConnection, url: string, log: Logger): Promise<ProbeHub> {
    const hub = new ProbeHub(connection, await latestProbeEventIds(connection), log);
    await hub.refresh();
    await hub.loadRecent();
    hub.listener = new PostgresListener({
      url,
      channels: [PROBE_EVENTS_CHANNEL, PROBE_COMMAND_DONE_CHANNEL],
      applicationName: 'klvscope-hub',
      onNotification: (channel) => {
        if (channel === PROBE_EVENTS_CHANNEL) void hub.pull();
        else hub.commandsDone.wakeAll();
      },
      onConnected: () => void hub.pull(),
    });
    return hub;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.listener?.close();
    await this.pulling;
    for (const log of [this.findings, this.statistics, this.track]) log.wakeAll();
  }

  /** Every probe and its sessions (running, and ended within a day), as of the last refresh unless `fresh`. */
  async probes(fresh = false): Promise<ProbeView[]> {
    if (fresh) await this.refresh();
    return this.probeRows.map((row) => this.probeView(row));
  }

  async probe(name: string): Promise<ProbeView> {
    const found = (await this.probes(true)).find((probe) => probe.name === name);
    if (!found) throw new FleetError('ERR_PROBE_NOT_FOUND', `no probe named '${name}' has reported to this fleet`, { name });
    return found;
  }

  /**
   * A probe session as the hub shows it, or null when no probe ever ran `id`:
   * its row read now, its probe's heartbeat as of the last refresh (a second old at most).
   */
  async session(id: string): Promise<ProbeSessionView | null> {
    const row = await getProbeSession(this.connection, id);
    if (!row) return null;
    return this.sessionView(row, this.isOnline(this.probeRows.find((probe) => probe.name === row.probe)));
  }

  /** A probe session's stored findings, in arrival order (all runs); null when no probe ran `id`. */
  async sessionFindings(id: string, query: { limit: number; offset: number; checkId?: string }): Promise<{ total: number; rows: ProbeFinding[] } | null> {
    const [session, rows, total] = await Promise.all([
      getProbeSession(this.connection, id),
      readProbeEvents(this.connection, 'findings', { sessionId: id, ...query }),
      countProbeFindings(this.connection, id, query.checkId),
    ]);
    if (!session) return null;
    return { total, rows: rows.map(decodeRecord<ProbeFinding>) };
  }

  /** Has `probe` start a session on `source`; resolves with the session once the probe has it running. */
  async startSession(probe: string, source: string): Promise<ProbeSessionView> {
    await this.assertOnline(probe);
    const row = (await this.command(probe, 'start', { source })) as ProbeSessionRow;
    const view = await this.session(row.id);
    return view ?? this.sessionView(row, true);
  }

  async stopSession(probe: string, sessionId: string): Promise<ProbeSessionView> {
    const view = await this.session(sessionId);
    if (!view || view.probe !== probe) throw new FleetError('ERR_PROBE_NOT_FOUND', `probe '${probe}' has no session '${sessionId}'`, { probe, sessionId });
    await this.assertOnline(probe);
    await this.command(probe, 'stop', { sessionId });
    return (await this.session(sessionId)) ?? view;
  }

  private async assertOnline(name: string): Promise<void> {
    const probe = await this.probe(name);
    if (!probe.online) throw new FleetError('ERR_PROBE_OFFLINE', `probe '${name}' is offline (last heartbeat ${probe.lastHeartbeat})`, { name, lastHeartbeat: probe.lastHeartbeat });
  }

  private async command(probe: string, kind: 'start' | 'stop', body: unknown): Promise<unknown> {
    const id = await queueProbeCommand(this.connection, probe, kind, body);
    const deadline = Date.now() + COMMAND_TIMEOUT_MS;
    for (;;) {
      const command = await getProbeCommand(this.connection, id);
      if (command?.doneMs != null) {
        if (command.error === null) return command.result;
        const { code, message } = JSON.parse(command.error) as { code: string | null; message: string };
        if (code === 'ERR_SOURCE_URL_INVALID') throw new AdapterError('ERR_SOURCE_URL_INVALID', message, { probe });
        throw new FleetError('ERR_PROBE_COMMAND_FAILED', `probe '${probe}': ${message}`, { probe, code });
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new FleetError('ERR_PROBE_NO_ANSWER', `probe '${probe}' did not carry out the ${kind} command within ${COMMAND_TIMEOUT_MS / 1_000} s (it may still)`, { probe, commandId: id });
      const timeout = AbortSignal.timeout(Math.min(left, 250));
      await this.commandsDone.wait(timeout);
    }
  }

  /** Reads the records stored since the last read, into the logs; a call while one runs makes that one read again. */
  private pull(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.pulling) {
      this.pullAgain = true;
      return this.pulling;
    }
    this.pulling = (async () => {
      try {
        do {
          this.pullAgain = false;
          let more = true;
          while (more && !this.closed) {
            more = false;
            const findings = await this.read<ProbeFinding>('findings', this.findings.lastId);
            for (const finding of findings) this.noteFinding(finding, Date.now());
            this.findings.append(findings);
            const statistics = await this.read<ProbeStatistics>('statistics', this.statistics.lastId);
            for (const reading of statistics) this.noteReading(reading);
            this.statistics.append(statistics);
            const track = await this.read<ProbeTrackPoint>('track', this.track.lastId);
            this.track.append(track);
            more = findings.length === READ_PAGE || statistics.length === READ_PAGE || track.length === READ_PAGE;
          }
        } while (this.pullAgain && !this.closed);
      } catch (error) {
        this.log.warn('the hub could not read the probes’ records (it tries again each second)', { error: error instanceof Error ? error.message : String(error) });
      } finally {
        this.pulling = null;
      }
    })();
    return this.pulling;
  }

  private async read<T>(kind: ProbeEventKind, afterId: number): Promise<T[]> {
    return (await readProbeEvents(this.connection, kind, { afterId, limit: READ_PAGE })).map(decodeRecord<T>);
  }

  private async refresh(): Promise<void> {
    const [probes, sessions, now] = await Promise.all([listProbes(this.connection), listProbeSessions(this.connection), serverNowMs(this.connection)]);
    this.clockOffsetMs = now - Date.now();
    this.probeRows = probes;
    this.sessionRows = sessions;
  }

  /** The sessions' latest readings and findings, so the tiles have their sparklines and lights at once. */
  private async loadRecent(): Promise<void> {
    const ids = this.sessionRows.filter((row) => !isEndedStatus(row.status)).map((row) => row.id);
    for (const reading of await recentProbeEvents(this.connection, 'statistics', ids, SPARKLINE_READINGS)) this.noteReading(decodeRecord<ProbeStatistics>(reading));
    for (const stored of await recentProbeEvents(this.connection, 'findings', ids, 20)) {
      const finding = decodeRecord<ProbeFinding>(stored);
      this.noteFinding(finding, finding.emittedAt);
    }
  }

  private summaryOf(sessionId: string): SessionSummary {
    let summary = this.summaries.get(sessionId);
    if (!summary) this.summaries.set(sessionId, (summary = { sparkline: [], bitsPerSecond: null, lastFinding: null, lastErrorAt: null, lastWarningAt: null }));
    return summary;
  }

  private noteReading(reading: ProbeStatistics): void {
    const summary = this.summaryOf(reading.sessionId);
    summary.bitsPerSecond = reading.bitsPerSecond;
    summary.sparkline.push(reading.bitsPerSecond);
    if (summary.sparkline.length > SPARKLINE_READINGS) summary.sparkline.splice(0, summary.sparkline.length - SPARKLINE_READINGS);
  }

  private noteFinding(finding: LiveFinding, seenAt: number): void {
    const summary = this.summaryOf(finding.sessionId);
    const { checkId, severity, message, receivedAt, emittedAt, count } = finding;
    summary.lastFinding = { checkId, severity, message, receivedAt, emittedAt, count };
    if (severity === 'error') summary.lastErrorAt = Math.max(summary.lastErrorAt ?? 0, seenAt);
    if (severity === 'warning') summary.lastWarningAt = Math.max(summary.lastWarningAt ?? 0, seenAt);
  }

  private isOnline(probe: ProbeRow | undefined): boolean {
    return probe !== undefined && probe.stoppedMs === null && Date.now() + this.clockOffsetMs - probe.heartbeatMs < OFFLINE_AFTER_MS;
  }

  private probeView(row: ProbeRow): ProbeView {
    const online = this.isOnline(row);
    const shownSince = Date.now() - ENDED_SHOWN_MS;
    const sessions = this.sessionRows.filter((session) => session.probe === row.name && (!isEndedStatus(session.status) || (session.stoppedMs ?? session.updatedMs) >= shownSince));
    return {
      name: row.name,
      host: row.host,
      pid: row.pid,
      version: row.version,
      startedAt: new Date(row.startedMs).toISOString(),
      lastHeartbeat: new Date(row.heartbeatMs).toISOString(),
      online,
      stoppedAt: row.stoppedMs === null ? null : new Date(row.stoppedMs).toISOString(),
      bufferedBytes: row.bufferedBytes,
      bufferLimitBytes: row.bufferLimitBytes,
      dropped: row.dropped,
      sessions: sessions.map((session) => this.sessionView(session, online)),
    };
  }

  private sessionView(row: ProbeSessionRow, probeOnline: boolean): ProbeSessionView {
    const summary = this.summaries.get(row.id);
    const status = !probeOnline && !isEndedStatus(row.status) ? 'unknown' : (row.status as ProbeSessionView['status']);
    return {
      sessionId: row.id,
      probe: row.probe,
      source: row.source,
      status,
      run: row.run,
      createdAt: new Date(row.createdMs).toISOString(),
      updatedAt: new Date(row.updatedMs).toISOString(),
      stoppedAt: row.stoppedMs === null ? null : new Date(row.stoppedMs).toISOString(),
      light: sessionLight({ status: row.status, probeOnline, lastErrorAt: summary?.lastErrorAt ?? null, lastWarningAt: summary?.lastWarningAt ?? null, nowMs: Date.now() }),
      bitsPerSecond: summary?.bitsPerSecond ?? null,
      sparkline: summary?.sparkline.slice() ?? [],
      lastFinding: summary?.lastFinding ?? null,
      state: row.state as LiveSessionState | null,
    };
  }
}

/** A stored record as the hub hands it on: its JSON, with the row's number, probe and run. */
function decodeRecord<T>(row: StoredProbeEvent): T {
  return { ...(JSON.parse(row.body) as object), id: row.id, probe: row.probe, run: row.run } as T;
}

