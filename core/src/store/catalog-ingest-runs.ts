/**
 * Ingest runs: one row per attempt to ingest a file, whatever its outcome.
 * The run's raw datasets are in its own database file (run-database.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Database } from 'sql.js';
import { execute, jsonColumn, numberColumn, optionalNumberColumn, optionalTextColumn, selectAll, selectOne, textColumn, type SqlRow } from './sql-query.js';

export type IngestRunStatus = 'running' | 'completed' | 'interrupted' | 'cancelled' | 'failed';

/** The statuses a run ends in (every status but 'running'). */
export type IngestRunEnd = Exclude<IngestRunStatus, 'running'>;

export interface IngestRunRow {
  id: string;
  /** '' while a running run's file is still being hashed beside its pass (setIngestRunHash). */
  hash: string;
  path: string;
  status: IngestRunStatus;
  startedMs: number;
  finishedMs: number | null;
  /** Rows stored per dataset, e.g. `{ pcr: 1200 }`. */
  counts: Record<string, number>;
  /** Milliseconds per phase, e.g. `{ read: 830 }`. */
  timings: Record<string, number>;
  error: string | null;
}

export interface NewIngestRun {
  /** Given by the caller or a random UUID; it also names the run's database file. */
  id?: string;
  hash: string;
  path: string;
  startedMs: number;
}

export interface IngestRunOutcome {
  status: IngestRunEnd;
  finishedMs: number;
  counts?: Record<string, number>;
  timings?: Record<string, number>;
  error?: string | null;
}

export const INTERRUPTED_RUN_ERROR = 'the process running this ingest ended before it finished';

/** Records a run as 'running'. */
export function createIngestRun(db: Database, run: NewIngestRun): IngestRunRow {
  const id = run.id ?? randomUUID();
  execute(db, `INSERT INTO ingest_runs (id, hash, path, status, started_ms) VALUES ($id, $hash, $path, 'running', $started)`, {
    $id: id,
    $hash: run.hash,
    $path: run.path,
    $started: run.startedMs,
  });
  return { id, hash: run.hash, path: run.path, status: 'running', startedMs: run.startedMs, finishedMs: null, counts: {}, timings: {}, error: null };
}

/** Ends a running run; returns false when there is no such run or it had already ended. */
export function finishIngestRun(db: Database, id: string, outcome: IngestRunOutcome): boolean {
  const changed = execute(
    db,
    `UPDATE ingest_runs SET status = $status, finished_ms = $finished, counts = $counts, timings = $timings, error = $error
     WHERE id = $id AND status = 'running'`,
    {
      $id: id,
      $status: outcome.status,
      $finished: outcome.finishedMs,
      $counts: JSON.stringify(outcome.counts ?? {}),
      $timings: JSON.stringify(outcome.timings ?? {}),
      $error: outcome.error ?? null,
    },
  );
  return changed === 1;
}

export function getIngestRun(db: Database, id: string): IngestRunRow | undefined {
  const row = selectOne(db, 'SELECT * FROM ingest_runs WHERE id = $id', { $id: id });
  return row && ingestRunFrom(row);
}

/** Every run of a file hash, newest first. */
export function listIngestRuns(db: Database, hash: string): IngestRunRow[] {
  return selectAll(db, 'SELECT * FROM ingest_runs WHERE hash = $hash ORDER BY started_ms DESC, rowid DESC', { $hash: hash }).map(ingestRunFrom);
}

/** The newest completed run of a file hash. */
export function latestCompletedIngestRun(db: Database, hash: string): IngestRunRow | undefined {
  const row = selectOne(db, `SELECT * FROM ingest_runs WHERE hash = $hash AND status = 'completed' ORDER BY started_ms DESC, rowid DESC LIMIT 1`, { $hash: hash });
  return row && ingestRunFrom(row);
}

/**
 * Marks every 'running' run 'interrupted'; returns their ids. Only right
 * after taking the data folder's lock: then no live process runs them. A
 * run whose file was still being hashed beside its pass (hash '') is
 * deleted instead: no file could list it.
 */
export function markRunningRunsInterrupted(db: Database): string[] {
  const ids = selectAll(db, `SELECT id FROM ingest_runs WHERE status = 'running' ORDER BY started_ms, rowid`).map((row) => textColumn(row, 'id'));
  execute(db, `DELETE FROM ingest_runs WHERE status = 'running' AND hash = ''`);
  // finished_ms stays NULL: when the process died is not known.
  execute(db, `UPDATE ingest_runs SET status = 'interrupted', error = $error WHERE status = 'running'`, { $error: INTERRUPTED_RUN_ERROR });
  return ids;
}

export const RETIRED_RUN_ERROR = 'stored before runs were kept in parts; ingest the file again';

/** Ends a completed run whose stored rows are gone (see Store.open): 'failed', so no cached stage reuses it. */
export function retireIngestRun(db: Database, id: string): boolean {
  return execute(db, `UPDATE ingest_runs SET status = 'failed', error = $error WHERE id = $id AND status = 'completed'`, { $id: id, $error: RETIRED_RUN_ERROR }) === 1;
}

export function deleteIngestRun(db: Database, id: string): boolean {
  return execute(db, 'DELETE FROM ingest_runs WHERE id = $id', { $id: id }) === 1;
}

export function ingestRunFrom(row: SqlRow): IngestRunRow {
  return {
    id: textColumn(row, 'id'),
    hash: textColumn(row, 'hash'),
    path: textColumn(row, 'path'),
    status: textColumn(row, 'status') as IngestRunStatus,
    startedMs: numberColumn(row, 'started_ms'),
    finishedMs: optionalNumberColumn(row, 'finished_ms'),
    counts: jsonColumn<Record<string, number>>(row, 'counts'),
    timings: jsonColumn<Record<string, number>>(row, 'timings'),
    error: optionalTextColumn(row, 'error'),
  };
}

/** Sets the file hash of a run started before its file's hash was known (hashed beside the run's pass). */
export function setIngestRunHash(db: Database, id: string, hash: string): void {
  execute(db, 'UPDATE ingest_runs SET hash = $hash WHERE id = $id', { $id: id, $hash: hash });
}
