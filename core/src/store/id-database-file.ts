/**
 * A database file named by an id (an ingest run's, a live session's): where
 * it lives, and how it is opened so that a new one exists on disk at once.
 */
import { join } from 'node:path';
import { DatabaseFile } from './database-file.js';
import type { Migration } from './schema-migrations.js';
import { StoreError } from './store-error.js';

/** An id becomes a file name, so it is kept to letters, digits, '-' and '_'. */
const FILE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** `dataDir/folder/id`; StoreError ERR_STORE_INVALID_ID, naming the id as `what` and in `details[detailKey]`, when it cannot name a file. */
export function idPath(dataDir: string, folder: string, id: string, what: string, detailKey: string): string {
  if (!FILE_ID.test(id)) {
    throw new StoreError('ERR_STORE_INVALID_ID', `${what} '${id}' cannot name a file (letters, digits, '-' and '_' only, at most 128)`, { [detailKey]: id });
  }
  return join(dataDir, folder, id);
}

/** `dataDir/folder/id.sqlite` (see idPath). */
export function idDatabasePath(dataDir: string, folder: string, id: string, what: string, detailKey: string): string {
  return `${idPath(dataDir, folder, id, what, detailKey)}.sqlite`;
}

/** Opens (or with `create`, makes) the database at `path`; a new one is written at once, so a catalog row never points at nothing. */
export async function openIdDatabase(path: string, label: string, migrations: readonly Migration[], create: boolean): Promise<DatabaseFile> {
  const file = await DatabaseFile.open(path, { label, migrations, create });
  if (!file.existed) await file.save();
  return file;
}
