/**
 * The channel relay's resources (platforms, channels, server status records,
 * log messages) in their own sql.js database, `<dataDir>/relay/relay.sqlite`,
 * saved atomically as the catalog is. A folder and lock of its own: the relay
 * runs beside the inspection service on one data folder (each process holds
 * the lock of what it writes), and its tables never touch the catalog's
 * migrations.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DataFolderLock } from './data-folder-lock.js';
import { DatabaseFile } from './database-file.js';
import type { Migration } from './schema-migrations.js';
import { canonicalTime } from './relay-time.js';
import { execute, selectAll } from './sql-query.js';

export const RELAY_FOLDER = 'relay';
export const RELAY_DATABASE_FILE_NAME = 'relay.sqlite';

export const RELAY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'relay tables',
    up(db) {
      db.run(`
        CREATE TABLE relay_platforms (
          id TEXT PRIMARY KEY,
          created_at TEXT NOT NULL,          -- ISO 8601 UTC, so text order is time order
          name TEXT NOT NULL,
          description TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE relay_channels (
          channel_id TEXT PRIMARY KEY,
          platform_id TEXT NOT NULL,
          position INTEGER NOT NULL,         -- order in its platform's channels array
          name TEXT NOT NULL,
          input TEXT NOT NULL,
          outputs TEXT NOT NULL,             -- JSON array of destination URLs
          enabled INTEGER NOT NULL,
          repack INTEGER NOT NULL,
          running INTEGER NOT NULL DEFAULT 0, -- asked to run: started again after a restart
          state TEXT NOT NULL DEFAULT 'stopped',
          output_states TEXT NOT NULL DEFAULT '[]',
          error TEXT
        );
        CREATE INDEX relay_channels_by_platform ON relay_channels (platform_id, position);
        CREATE TABLE relay_server_status (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          started_at TEXT NOT NULL,
          state TEXT NOT NULL,
          error_message TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE relay_log_messages (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          time TEXT NOT NULL,
          type TEXT NOT NULL,
          message TEXT NOT NULL
        );
        CREATE INDEX relay_log_messages_by_time ON relay_log_messages (time);
      `);
    },
  },
  {
    version: 2,
    name: 'insertion order of records, canonical times',
    up(db) {
      // json-server lists rows in the order they were inserted; a POST may give any free id, so the id is not that order.
      for (const table of ['relay_server_status', 'relay_log_messages']) {
        db.run(`ALTER TABLE ${table} ADD COLUMN seq INTEGER NOT NULL DEFAULT 0; UPDATE ${table} SET seq = id; CREATE INDEX ${table}_by_seq ON ${table} (seq);`);
      }
      // Times were stored as given: rewritten in the one form whose text order is time order.
      for (const [table, key, column] of [
        ['relay_platforms', 'id', 'created_at'],
        ['relay_server_status', 'id', 'started_at'],
        ['relay_log_messages', 'id', 'time'],
      ] as const) {
        for (const row of selectAll(db, `SELECT ${key} AS k, ${column} AS t FROM ${table}`)) {
          const canonical = canonicalTime(String(row.t));
          if (canonical !== null && canonical !== row.t) execute(db, `UPDATE ${table} SET ${column} = ? WHERE ${key} = ?`, [canonical, row.k]);
        }
      }
    },
  },
  {
    version: 3,
    name: 'channel alarms',
    up(db) {
      // No limits: a channel defined before alarms raises none.
      db.run(`ALTER TABLE relay_channels ADD COLUMN alarms TEXT NOT NULL DEFAULT '{"minBitrate":null,"maxBitrate":null,"maxSilenceMs":null,"pids":[],"windowSeconds":1}'`);
    },
  },
];

export interface RelayDatabase {
  readonly file: DatabaseFile;
  /** Saves if anything changed, closes the database and releases the relay folder. */
  close(): Promise<void>;
}

/** Takes the relay folder's lock (ERR_STORE_LOCKED when another relay holds it), then opens and migrates its database. */
export async function openRelayDatabase(dataDir: string): Promise<RelayDatabase> {
  const folder = join(dataDir, RELAY_FOLDER);
  await mkdir(folder, { recursive: true });
  const lock = await DataFolderLock.acquire(folder);
  let file: DatabaseFile;
  try {
    file = await DatabaseFile.open(join(folder, RELAY_DATABASE_FILE_NAME), { label: 'relay database', migrations: RELAY_MIGRATIONS });
    await file.saveIfChanged();
  } catch (error) {
    await lock.release();
    throw error;
  }
  let closing: Promise<void> | null = null;
  return {
    file,
    close: () =>
      (closing ??= (async () => {
        try {
          await file.saveIfChanged();
        } finally {
          await file.close();
          await lock.release();
        }
      })()),
  };
}
