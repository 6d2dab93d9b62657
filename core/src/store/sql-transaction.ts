/** Runs `work` in one SQLite transaction: all of it is kept, or none of it. */
import type { Database } from 'sql.js';

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
