/**
 * Stores the points of one process run over a stored run, under its check
 * key, in parts of bounded size (part-sequence.ts); each check's `n` runs on
 * across parts. The points stored under the key before are dropped first;
 * the new parts are listed in the run's index once all are saved.
 */
import type { Point } from '../kernel/check-point.js';
import { DEFAULT_PART_BYTES, PartSequence } from './part-sequence.js';
import { CHECK_POINTS_MIGRATIONS, POINTS_PER_TRANSACTION, createCheckPointWriter, type CheckPointWriter, type PointPartSummary } from './run-check-points.js';
import { pointPartFile, type StoredRun } from './stored-run.js';

export interface RunPointWriter {
  /** Stores one point of a check (a PointSink). */
  write(point: Point, checkId: string): void;
  backlog(): Promise<void> | null;
  /** Saves the last part, lists the parts in the run's index; returns the points stored per check. */
  finish(): Promise<Record<string, number>>;
  /** Stops writing and deletes what was written under the key. */
  abort(): Promise<void>;
}

export async function createRunPointWriter(run: StoredRun, checkKey: string): Promise<RunPointWriter> {
  await run.dropPointParts(checkKey);
  const rowsPerTransaction = run.partOptions.rowsPerTransaction ?? POINTS_PER_TRANSACTION;
  let part!: CheckPointWriter;
  let counts: Record<string, number> = {};
  let written = 0;
  const sequence = new PartSequence<PointPartSummary>({
    folder: run.folder,
    fileName: (n) => pointPartFile(checkKey, n),
    label: `ingest run ${run.runId} points`,
    migrations: CHECK_POINTS_MIGRATIONS,
    partBytes: run.partOptions.partBytes ?? DEFAULT_PART_BYTES,
    open: (database) => (part = createCheckPointWriter(database.db, counts, rowsPerTransaction)),
    close: () => {
      counts = part.finish();
      return part.summary();
    },
  });
  return {
    write(point, checkId) {
      part.write(point, checkId);
      if (++written % rowsPerTransaction === 0) sequence.rollIfFull();
    },
    backlog: () => sequence.backlog(),
    async finish() {
      const parts = await sequence.finish();
      await run.recordPointParts(checkKey, parts);
      return counts;
    },
    async abort() {
      part.abort();
      await sequence.abort();
      await run.dropPointParts(checkKey);
    },
  };
}
