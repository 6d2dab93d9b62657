/**
 * Schema versions. A database's version is SQLite's `PRAGMA user_version`
 * (0 for a new file); migration N takes it from N-1 to N. The pending ones
 * run in one transaction at open, so a failure leaves the previous version
 * whole. Migrations are append-only: a released one is never edited.
 */
import type { Database } from 'sql.js';
import { numberColumn, selectOne } from './sql-query.js';
import { inTransaction } from './sql-transaction.js';
import { StoreError } from './store-error.js';

export interface Migration {
  /** 1 for the first; each next one adds 1. */
  readonly version: number;
  /** What it changes, for error messages. */
  readonly name: string;
  up(db: Database): void;
}

export interface MigrationOutcome {
  from: number;
  to: number;
}

export function schemaVersionOf(db: Database): number {
  return numberColumn(selectOne(db, 'PRAGMA user_version') ?? {}, 'user_version');
}

/** Brings `db` to the last migration's version. `label` names the database in errors. */
export function migrateDatabase(db: Database, migrations: readonly Migration[], label: string): MigrationOutcome {
  assertMigrationOrder(migrations);
  const from = schemaVersionOf(db);
  const latest = migrations.length;
  if (from > latest) {
    throw new StoreError(
      'ERR_STORE_SCHEMA_TOO_NEW',
      `${label} has schema version ${from}, newer than this klvscope knows (${latest}); use a newer klvscope or another data folder`,
      { label, version: from, supported: latest },
    );
  }
  const pending = migrations.slice(from);
  if (pending.length === 0) return { from, to: latest };
  let current: Migration | undefined;
  try {
    inTransaction(db, () => {
      for (current of pending) {
        current.up(db);
        // Inside the transaction, so the version moves only with the tables.
        db.run(`PRAGMA user_version = ${current.version}`);
      }
    });
  } catch (error) {
    if (error instanceof StoreError) throw error;
    const failed = current === undefined ? '' : ` at migration ${current.version} (${current.name})`;
    throw new StoreError(
      'ERR_STORE_MIGRATION_FAILED',
      `${label} could not be migrated from schema version ${from}${failed}: ${error instanceof Error ? error.message : String(error)}`,
      { label, from, failedVersion: current?.version },
      { cause: error },
    );
  }
  return { from, to: latest };
}

/** Throws unless the migrations' versions run 1, 2, 3, … in order. */
export function assertMigrationOrder(migrations: readonly { version: number; name: string }[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`migration '${migration.name}' has version ${migration.version}; expected ${index + 1} (versions run 1, 2, 3, … in order)`);
    }
  });
}
