/**
 * Stores an ingest run's observations as they are emitted, in parts of
 * bounded size (part-sequence.ts): each part has the observation tables
 * (datasets/dataset-schema.ts) and a stretch of the emission order, `seq`
 * running on from the part before. Once every part is saved, they are listed
 * in the run's index (stored-run.ts).
 */
import type { ObservationSink } from '../kernel/observations.js';
import { observationCountsOf, summarizePart, type DatasetPart } from './datasets/dataset-parts.js';
import { RAW_DATASET_MIGRATIONS } from './datasets/dataset-schema.js';
import type { ObservationCounts } from './datasets/observation-counts.js';
import { createObservationWriter, DEFAULT_ROWS_PER_TRANSACTION, type ObservationWriter } from './datasets/observation-writer.js';
import { DEFAULT_PART_BYTES, PartSequence } from './part-sequence.js';
import { observationPartFile, type StoredRun } from './stored-run.js';

export interface RunObservationWriter {
  /** Stores one observation (an ObservationSink; it needs no `this`). */
  readonly write: ObservationSink;
  /** A promise to wait for before producing more while a finished part's save lags behind; null when none does. */
  backlog(): Promise<void> | null;
  /** Saves the last part, lists the parts in the run's index; returns the rows stored per kind. */
  finish(): Promise<ObservationCounts>;
  /** Stops writing, the current part unsaved; the run's folder is its owner's to delete. Safe after finish(). */
  abort(): Promise<void>;
}

export interface RunObservationWriterOptions {
  /** Rows per transaction (observation-writer.ts); a part may end after each. Default 10 000. */
  rowsPerTransaction?: number;
  /** The klv-field observations made from their packets' items (ObservationWriterOptions). */
  fieldsFromItems?: boolean;
}

export function createRunObservationWriter(run: StoredRun, options: RunObservationWriterOptions = {}): RunObservationWriter {
  const rowsPerTransaction = options.rowsPerTransaction ?? run.partOptions.rowsPerTransaction ?? DEFAULT_ROWS_PER_TRANSACTION;
  let part!: ObservationWriter;
  let written = 0;
  // The seq a next part goes on after: the observations written, and any fields made from items.
  let lastSeq = 0;
  const sequence = new PartSequence<DatasetPart>({
    folder: run.folder,
    fileName: observationPartFile,
    label: `ingest run ${run.runId} observations`,
    migrations: RAW_DATASET_MIGRATIONS,
    partBytes: run.partOptions.partBytes ?? DEFAULT_PART_BYTES,
    open: (database) => (part = createObservationWriter(database.db, { afterSeq: lastSeq, rowsPerTransaction, fieldsFromItems: options.fieldsFromItems })),
    close: (database) => {
      part.finish();
      lastSeq = part.lastSeq();
      return summarizePart(database.db);
    },
  });
  return {
    write(observation) {
      part.write(observation);
      // The part's writer has just committed a transaction: a part may end here.
      if (++written % rowsPerTransaction === 0) sequence.rollIfFull();
    },
    backlog: () => sequence.backlog(),
    async finish() {
      const parts = await sequence.finish();
      await run.recordObservationParts(parts);
      return observationCountsOf(parts);
    },
    async abort() {
      part.abort();
      await sequence.abort();
    },
  };
}
