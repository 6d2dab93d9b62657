/**
 * A stored run's files in PostgreSQL (run_parts): the run's index and its
 * parts, each an SQLite database of observation or point blocks written by
 * the same codecs as in a data folder (core's stored-run.ts), as one bytea
 * row each. A worker stores them before the catalog lists the run; a node
 * that reads the run copies them into its own data folder first. Rows of a
 * run the catalog never listed completed are a dead worker's: swept.
 */
import type { SqlRunner } from './postgres-connection.js';

export interface RunFile {
  fileName: string;
  bytes: Uint8Array;
}

export async function putRunFile(db: SqlRunner, runId: string, file: RunFile, nowMs: number): Promise<void> {
  await db.query(
    `INSERT INTO run_parts (run_id, file_name, bytes, stored_ms) VALUES ($1, $2, $3, $4)
     ON CONFLICT (run_id, file_name) DO UPDATE SET bytes = excluded.bytes, stored_ms = excluded.stored_ms`,
    [runId, file.fileName, Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength), nowMs],
  );
}

/** The names of a run's files, with their sizes. */
export async function listRunFiles(db: SqlRunner, runId: string): Promise<{ fileName: string; bytes: number }[]> {
  const rows = await db.query<{ file_name: string; size: number }>('SELECT file_name, octet_length(bytes) AS size FROM run_parts WHERE run_id = $1 ORDER BY file_name', [runId]);
  return rows.map((row) => ({ fileName: row.file_name, bytes: row.size }));
}

export async function getRunFile(db: SqlRunner, runId: string, fileName: string): Promise<Uint8Array | undefined> {
  const [row] = await db.query<{ bytes: Buffer }>('SELECT bytes FROM run_parts WHERE run_id = $1 AND file_name = $2', [runId, fileName]);
  return row?.bytes;
}

export async function deleteRunFiles(db: SqlRunner, runId: string): Promise<number> {
  const rows = await db.query<{ n: number }>('WITH gone AS (DELETE FROM run_parts WHERE run_id = $1 RETURNING 1) SELECT count(*)::int AS n FROM gone', [runId]);
  return rows[0]?.n ?? 0;
}

/**
 * Deletes the files of runs the catalog does not list as completed, stored
 * before `olderThanMs` (so not those of a run a live worker is storing now);
 * returns the runs swept.
 */
export async function sweepOrphanedRunFiles(db: SqlRunner, olderThanMs: number): Promise<string[]> {
  const rows = await db.query<{ run_id: string }>(
    `WITH orphans AS (
       SELECT DISTINCT p.run_id FROM run_parts p
       WHERE NOT EXISTS (SELECT 1 FROM ingest_runs r WHERE r.id = p.run_id AND r.status = 'completed')
       GROUP BY p.run_id HAVING max(p.stored_ms) < $1
     ), gone AS (DELETE FROM run_parts p USING orphans o WHERE p.run_id = o.run_id RETURNING p.run_id)
     SELECT DISTINCT run_id FROM gone ORDER BY run_id`,
    [olderThanMs],
  );
  return rows.map((row) => row.run_id);
}

/** Bytes of run files in the catalog, for the fleet's sizing (bytes per GB of recording). */
export async function runFileBytes(db: SqlRunner): Promise<number> {
  const [row] = await db.query<{ bytes: number | null }>('SELECT sum(octet_length(bytes))::bigint AS bytes FROM run_parts');
  return row?.bytes ?? 0;
}
