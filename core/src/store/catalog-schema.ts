/**
 * The catalog database's migrations (`<dataDir>/catalog.sqlite`). Small
 * tables only: the bulky raw datasets live in one database per ingest run
 * (run-database.ts), so saving the catalog stays cheap.
 *
 * Times are milliseconds since the Unix epoch; JSON columns hold text.
 * Relations (`hash` → files.hash) are by convention, not FOREIGN KEY: sql.js
 * leaves foreign keys off, and a declared but unenforced key would mislead.
 *
 * The analysis archive has no table: an archive entry is a file (files) with
 * at least one cached stage payload (stage_payloads); see catalog-archive.ts.
 */
import type { Migration } from './schema-migrations.js';

export const CATALOG_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'catalog tables',
    up(db) {
      db.run(`
        CREATE TABLE files (
          hash TEXT PRIMARY KEY,            -- SHA-256 of the content, lower-case hex
          size INTEGER NOT NULL,
          first_path TEXT NOT NULL,         -- where the content was first seen
          first_seen_ms INTEGER NOT NULL
        );
        CREATE TABLE file_records (
          path TEXT PRIMARY KEY,            -- absolute path
          size INTEGER NOT NULL,
          mtime_ms REAL NOT NULL,           -- fs.Stats.mtimeMs, fraction kept
          hash TEXT NOT NULL,
          checked_ms INTEGER NOT NULL
        );
        CREATE INDEX file_records_by_hash ON file_records (hash);
        CREATE TABLE stage_payloads (
          hash TEXT NOT NULL,
          stage TEXT NOT NULL,
          compatibility_key TEXT NOT NULL,  -- a payload is reusable only under the same key
          payload TEXT NOT NULL,
          created_ms INTEGER NOT NULL,
          PRIMARY KEY (hash, stage, compatibility_key)
        );
        CREATE TABLE ingest_runs (
          id TEXT PRIMARY KEY,
          hash TEXT NOT NULL,
          path TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'interrupted', 'cancelled', 'failed')),
          started_ms INTEGER NOT NULL,
          finished_ms INTEGER,
          counts TEXT NOT NULL DEFAULT '{}',
          timings TEXT NOT NULL DEFAULT '{}',
          error TEXT
        );
        CREATE INDEX ingest_runs_by_hash ON ingest_runs (hash, started_ms);
        CREATE INDEX ingest_runs_by_status ON ingest_runs (status);
        CREATE TABLE sessions (
          id TEXT PRIMARY KEY,
          kind TEXT NOT NULL CHECK (kind IN ('file', 'live')),
          source TEXT NOT NULL,
          status TEXT NOT NULL,
          created_ms INTEGER NOT NULL,
          updated_ms INTEGER NOT NULL,
          state TEXT NOT NULL DEFAULT '{}'  -- stage, workspace, …: the workflow's to define
        );
        CREATE TABLE config (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL,
          updated_ms INTEGER NOT NULL
        );
        CREATE TABLE rule_templates (
          name TEXT PRIMARY KEY,
          rules TEXT NOT NULL,
          created_ms INTEGER NOT NULL,
          updated_ms INTEGER NOT NULL
        );
        CREATE TABLE recent_sources (
          id INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused, so a stale id deletes nothing
          source TEXT NOT NULL,
          kind TEXT NOT NULL,
          last_used_ms INTEGER NOT NULL,
          UNIQUE (kind, source)
        );
      `);
    },
  },
];
