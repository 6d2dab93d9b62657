/**
 * The fleet's workers as the catalog sees them (fleet_workers): one row per
 * worker process, its heartbeat each second with what it is doing. A worker
 * whose heartbeat is older than a few seconds is gone (dead or cut off);
 * its job's lease runs out on its own (postgres-job-queue.ts).
 */
import type { SqlRunner } from './postgres-connection.js';

export interface FleetWorkerRow {
  id: string;
  host: string;
  pid: number;
  version: string;
  startedMs: number;
  heartbeatMs: number;
  currentJob: string | null;
  currentPath: string | null;
  bytesDone: number;
  bytesPerSecond: number;
  jobsDone: number;
  stoppedMs: number | null;
}

export type WorkerBeat = Pick<FleetWorkerRow, 'heartbeatMs' | 'currentJob' | 'currentPath' | 'bytesDone' | 'bytesPerSecond' | 'jobsDone'>;

export async function registerWorker(db: SqlRunner, worker: Pick<FleetWorkerRow, 'id' | 'host' | 'pid' | 'version' | 'startedMs'>): Promise<void> {
  await db.query('INSERT INTO fleet_workers (id, host, pid, version, started_ms, heartbeat_ms) VALUES ($1, $2, $3, $4, $5, $5)', [
    worker.id,
    worker.host,
    worker.pid,
    worker.version,
    worker.startedMs,
  ]);
}

export async function beatWorker(db: SqlRunner, id: string, beat: WorkerBeat): Promise<void> {
  await db.query(
    'UPDATE fleet_workers SET heartbeat_ms = $2, current_job = $3, current_path = $4, bytes_done = $5, bytes_per_second = $6, jobs_done = $7 WHERE id = $1',
    [id, beat.heartbeatMs, beat.currentJob, beat.currentPath, beat.bytesDone, beat.bytesPerSecond, beat.jobsDone],
  );
}

export async function stopWorker(db: SqlRunner, id: string, stoppedMs: number): Promise<void> {
  await db.query('UPDATE fleet_workers SET stopped_ms = $2, current_job = NULL, current_path = NULL WHERE id = $1', [id, stoppedMs]);
}

/** The workers seen since `sinceMs` (default: all), the most recently started first. */
export async function listWorkers(db: SqlRunner, sinceMs = 0): Promise<FleetWorkerRow[]> {
  const rows = await db.query<Record<string, unknown>>('SELECT * FROM fleet_workers WHERE heartbeat_ms >= $1 ORDER BY started_ms DESC, id', [sinceMs]);
  return rows.map((row) => ({
    id: row.id as string,
    host: row.host as string,
    pid: row.pid as number,
    version: row.version as string,
    startedMs: row.started_ms as number,
    heartbeatMs: row.heartbeat_ms as number,
    currentJob: row.current_job as string | null,
    currentPath: row.current_path as string | null,
    bytesDone: row.bytes_done as number,
    bytesPerSecond: row.bytes_per_second as number,
    jobsDone: row.jobs_done as number,
    stoppedMs: row.stopped_ms as number | null,
  }));
}

/** Records which worker made a run (shown on the dashboard's files page). */
export async function setRunWorker(db: SqlRunner, runId: string, worker: string): Promise<void> {
  await db.query('UPDATE ingest_runs SET worker = $2 WHERE id = $1', [runId, worker]);
}

export async function runWorker(db: SqlRunner, runId: string): Promise<string | null> {
  const [row] = await db.query<{ worker: string | null }>('SELECT worker FROM ingest_runs WHERE id = $1', [runId]);
  return row?.worker ?? null;
}

/** The worker of each content's newest completed run (files inspected by a worker). */
export async function workersByHash(db: SqlRunner): Promise<Map<string, string>> {
  const rows = await db.query<{ hash: string; worker: string }>(
    `SELECT DISTINCT ON (hash) hash, worker FROM ingest_runs WHERE status = 'completed' AND worker IS NOT NULL ORDER BY hash, started_ms DESC, seq DESC`,
  );
  return new Map(rows.map((row) => [row.hash, row.worker]));
}
