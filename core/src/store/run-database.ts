/**
 * One database file per ingest run, `<dataDir>/runs/<runId>.sqlite`, for its
 * raw datasets: a save writes one run, never the others or the catalog.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseFile } from './database-file.js';
import { RAW_DATASET_MIGRATIONS } from './datasets/dataset-schema.js';
import { CHECK_POINTS_SCHEMA } from './run-check-points.js';
import type { Migration } from './schema-migrations.js';
import { StoreError } from './store-error.js';

export const RUNS_FOLDER = 'runs';

/**
 * The run database's schema: the raw dataset tables (one per observation
 * kind, datasets/dataset-schema.ts), then the points of the `process` stage
 * (run-check-points.ts). Append-only: a schema change is a new migration.
 */
export const RUN_DATABASE_MIGRATIONS: readonly Migration[] = [
  ...RAW_DATASET_MIGRATIONS,
  { version: RAW_DATASET_MIGRATIONS.length + 1, name: 'check points', up: (db) => db.exec(CHECK_POINTS_SCHEMA) },
];

/** A run id becomes a file name, so it is kept to letters, digits, '-' and '_'. */
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function runDatabasePath(dataDir: string, runId: string): string {
  if (!RUN_ID.test(runId)) {
    throw new StoreError('ERR_STORE_INVALID_ID', `ingest run id '${runId}' cannot name a file (letters, digits, '-' and '_' only, at most 128)`, { runId });
  }
  return join(dataDir, RUNS_FOLDER, `${runId}.sqlite`);
}

export interface RunDatabaseOptions {
  /** Make a new database when the file is missing (and write it at once). Default false. */
  create?: boolean;
  /** The schema; RUN_DATABASE_MIGRATIONS unless a test or a newer layout says otherwise. */
  migrations?: readonly Migration[];
}

/** Opens (or with `create`, makes) a run's database; the caller saves and closes it. */
export async function openRunDatabase(dataDir: string, runId: string, options: RunDatabaseOptions = {}): Promise<DatabaseFile> {
  const { create = false, migrations = RUN_DATABASE_MIGRATIONS } = options;
  const file = await DatabaseFile.open(runDatabasePath(dataDir, runId), { label: `ingest run ${runId}`, migrations, create });
  // A created run exists on disk from the start, so its catalog row never points at nothing.
  if (!file.existed) await file.save();
  return file;
}

/** Deletes a run's database file; returns false when there was none. */
export async function deleteRunDatabase(dataDir: string, runId: string): Promise<boolean> {
  const path = runDatabasePath(dataDir, runId);
  try {
    await rm(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
