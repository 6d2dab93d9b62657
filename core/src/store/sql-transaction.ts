/** SQLite transactions: one around a piece of work, or a writer's inserts in batches. */
import type { Database } from 'sql.js';

/** Runs `work` in one SQLite transaction: all of it is kept, or none of it. */
export function inTransaction<T>(db: Database, work: () => T): T {
  db.run('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.run('COMMIT');
    return result;
  } catch (error) {
    db.run('ROLLBACK');
    throw error;
  }
}

/**
 * A writer's inserts in transactions of `rowsPerTransaction` rows: one per
 * row would make SQLite journal every insert, one for all of them would
 * hold an unbounded journal. Two calls around each insert, no closure, so
 * a hot loop allocates nothing.
 */
export interface BatchedTransactions {
  /** Begins a transaction unless one is open: call before an insert. */
  beforeRow(): void;
  /** Counts the row just inserted; commits once the batch is full. */
  afterRow(): void;
  /** Commits the open transaction, if any (then calls `onCommit`). */
  commit(): void;
  /** Rolls back the open transaction, if any: its rows are not stored. */
  rollback(): void;
}

/**
 * `onCommit` runs after each commit, e.g. to note what the committed transactions hold; `beforeCommit`
 * just before one, inside it (a writer that gathers rows, into blocks or for multi-row statements, stores them there).
 */
export function batchedTransactions(db: Database, rowsPerTransaction: number, onCommit?: () => void, beforeCommit?: () => void): BatchedTransactions {
  let open = false;
  let pending = 0;
  const commit = (): void => {
    if (open) {
      beforeCommit?.();
      db.run('COMMIT');
    }
    open = false;
    pending = 0;
    onCommit?.();
  };
  return {
    beforeRow() {
      if (open) return;
      db.run('BEGIN');
      open = true;
    },
    afterRow() {
      if (++pending >= rowsPerTransaction) commit();
    },
    commit,
    rollback() {
      if (open) db.run('ROLLBACK');
      open = false;
      pending = 0;
    },
  };
}
