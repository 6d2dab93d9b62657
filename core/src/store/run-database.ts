/**
 * One database file per ingest run, `<dataDir>/runs/<runId>.sqlite`, for its
 * raw datasets: a save writes one run, never the others or the catalog.
 */
import { rm } from 'node:fs/promises';
import type { DatabaseFile } from './database-file.js';
import { idDatabasePath, openIdDatabase } from './id-database-file.js';
import { RAW_DATASET_MIGRATIONS } from './datasets/dataset-schema.js';
import { CHECK_POINTS_SCHEMA } from './run-check-points.js';
import type { Migration } from './schema-migrations.js';

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

export function runDatabasePath(dataDir: string, runId: string): string {
  return idDatabasePath(dataDir, RUNS_FOLDER, runId, 'ingest run id', 'runId');
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
  return openIdDatabase(runDatabasePath(dataDir, runId), `ingest run ${runId}`, migrations, create);
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
