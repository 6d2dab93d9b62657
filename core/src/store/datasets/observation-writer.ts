/**
 * Stores the observations of an ingest run as they are emitted: an
 * ObservationSink that inserts each one into its kind's table with
 * prepared statements, numbering them in emission order (`seq`).
 *
 * Inserts run in transactions of `rowsPerTransaction` rows
 * (batchedTransactions says why). The writer owns the database's
 * transactions while it is open; the caller saves the file.
 */
import type { Database, SqlValue, Statement } from 'sql.js';
import type { Observation, ObservationSink } from '../../kernel/observations.js';
import { observationKindIndex } from '../../kernel/observation-kinds.js';
import { batchedTransactions } from '../sql-transaction.js';
import { DatasetError } from './dataset-error.js';
import { emptyObservationCounts, type ObservationCounts } from './observation-counts.js';
import { OBSERVATION_ROW_CODECS } from './observation-row-codec.js';

export const DEFAULT_ROWS_PER_TRANSACTION = 10_000;

export interface ObservationWriterOptions {
  /** Rows per committed transaction; default 10 000. */
  rowsPerTransaction?: number;
  /** Number the rows after this `seq` (a run's next part); default: after the largest stored. */
  afterSeq?: number;
}

export interface ObservationWriter {
  /** Stores one observation; pass it where an ObservationSink goes (it needs no `this`). */
  readonly write: ObservationSink;
  /** The observations stored so far, per kind (a copy). */
  counts(): ObservationCounts;
  /** Commits what is pending, releases the statements and returns the counts per kind. */
  finish(): ObservationCounts;
  /**
   * Rolls back the open transaction and releases the statements. Rows of
   * transactions already committed stay (and counts() then gives them): an
   * aborted run's database is discarded by its owner. Call it when write()
   * threw, too. Safe to call more than once, and after finish().
   */
  abort(): void;
}

/** The largest `seq` stored so far, so a writer on a database that has rows goes on after them. */
function lastSeq(db: Database): number {
  const union = OBSERVATION_ROW_CODECS.map((codec) => `SELECT max(seq) AS seq FROM "${codec.table}"`).join(' UNION ALL ');
  const [result] = db.exec(`SELECT coalesce(max(seq), 0) FROM (${union})`);
  return Number(result.values[0][0]);
}

export function createObservationWriter(db: Database, options: ObservationWriterOptions = {}): ObservationWriter {
  const rowsPerTransaction = options.rowsPerTransaction ?? DEFAULT_ROWS_PER_TRANSACTION;
  if (!Number.isSafeInteger(rowsPerTransaction) || rowsPerTransaction < 1) {
    throw new DatasetError('ERR_DATASET_INVALID_PARAMETER', `rowsPerTransaction must be a whole number of at least 1, got ${rowsPerTransaction}`, {
      parameter: 'rowsPerTransaction',
      value: rowsPerTransaction,
    });
  }
  let seq = options.afterSeq ?? lastSeq(db);
  const statements: Statement[] = OBSERVATION_ROW_CODECS.map((codec) => db.prepare(codec.insertSql));
  // One row array per kind, reused: the hot path allocates nothing of its own.
  const rows: SqlValue[][] = OBSERVATION_ROW_CODECS.map((codec) => new Array<SqlValue>(codec.columns.length + 1));
  const perKind = new Array<number>(OBSERVATION_ROW_CODECS.length).fill(0);
  // What the committed transactions hold, for abort().
  let committed = perKind.slice();
  let open = true;
  const transactions = batchedTransactions(db, rowsPerTransaction, () => (committed = perKind.slice()));

  const countsNow = (): ObservationCounts => {
    const counts = emptyObservationCounts();
    OBSERVATION_ROW_CODECS.forEach((codec, index) => (counts[codec.kind] = perKind[index]));
    return counts;
  };
  const assertOpen = (): void => {
    if (!open) throw new DatasetError('ERR_DATASET_WRITER_CLOSED', 'the observation writer was already finished or aborted');
  };
  const release = (): void => {
    open = false;
    for (const statement of statements) statement.free();
  };

  const write = (observation: Observation): void => {
    assertOpen();
    const index = observationKindIndex(observation.kind);
    if (index < 0) {
      throw new DatasetError('ERR_DATASET_UNSUPPORTED_KIND', `an observation of kind '${String(observation.kind)}' has no table`, { kind: observation.kind });
    }
    transactions.beforeRow();
    const row = rows[index];
    OBSERVATION_ROW_CODECS[index].encode(observation, ++seq, row);
    statements[index].run(row);
    perKind[index]++;
    transactions.afterRow();
  };

  return {
    write,
    counts: countsNow,
    finish() {
      assertOpen();
      transactions.commit();
      release();
      return countsNow();
    },
    abort() {
      if (!open) return;
      transactions.rollback();
      release();
      // The rolled-back rows are not stored: count only what the committed transactions hold.
      committed.forEach((count, index) => (perKind[index] = count));
    },
  };
}
