/**
 * The PostgreSQL catalog's versioned migrations. The versions applied are
 * rows of `klvscope_schema`; the pending ones run in one transaction under
 * an advisory lock, so nodes that start together migrate once, and a
 * failure leaves the previous version whole. Append-only, as the SQLite
 * catalog's (core/src/store/catalog-schema.ts): a released one is never
 * edited. A node that finds a newer version than it knows refuses to run.
 */
import { assertMigrationOrder, StoreError } from '@klvscope/core/store';
import type { PostgresConnection, SqlRunner } from './postgres-connection.js';

export interface PostgresMigration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** The key of the advisory lock held while migrating ('klvs' in ASCII). */
const MIGRATION_LOCK_KEY = 0x6b6c7673;

export const POSTGRES_CATALOG_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'catalog tables',
    // The SQLite catalog's tables, typed for PostgreSQL; ingest_runs.seq keeps the insertion order SQLite's rowid gives.
    sql: `
      CREATE TABLE files (
        hash TEXT PRIMARY KEY,
        size BIGINT NOT NULL,
        first_path TEXT NOT NULL,
        first_seen_ms BIGINT NOT NULL
      );
      CREATE INDEX files_by_size ON files (size);
      CREATE TABLE file_records (
        path TEXT PRIMARY KEY,
        size BIGINT NOT NULL,
        mtime_ms DOUBLE PRECISION NOT NULL,
        hash TEXT NOT NULL,
        checked_ms BIGINT NOT NULL
      );
      CREATE INDEX file_records_by_hash ON file_records (hash);
      CREATE TABLE stage_payloads (
        hash TEXT NOT NULL,
        stage TEXT NOT NULL,
        compatibility_key TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        PRIMARY KEY (hash, stage, compatibility_key)
      );
      CREATE TABLE ingest_runs (
        seq BIGSERIAL UNIQUE,
        id TEXT PRIMARY KEY,
        hash TEXT NOT NULL,
        path TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'interrupted', 'cancelled', 'failed')),
        started_ms BIGINT NOT NULL,
        finished_ms BIGINT,
        counts TEXT NOT NULL DEFAULT '{}',
        timings TEXT NOT NULL DEFAULT '{}',
        error TEXT
      );
      CREATE INDEX ingest_runs_by_hash ON ingest_runs (hash, started_ms);
      CREATE INDEX ingest_runs_by_status ON ingest_runs (status);
      CREATE TABLE config (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_ms BIGINT NOT NULL
      );
      CREATE TABLE rule_templates (
        name TEXT PRIMARY KEY,
        rules TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'run parts and workers',
    // A run's files (its index and its parts: SQLite databases of observation and point blocks, 4 MB at most each)
    // as bytea rows; a run is read only once the catalog lists it completed. The workers' heartbeats, one row each.
    sql: `
      CREATE TABLE run_parts (
        run_id TEXT NOT NULL,
        file_name TEXT NOT NULL,
        bytes BYTEA NOT NULL,
        stored_ms BIGINT NOT NULL,
        PRIMARY KEY (run_id, file_name)
      );
      CREATE TABLE fleet_workers (
        id TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        version TEXT NOT NULL,
        started_ms BIGINT NOT NULL,
        heartbeat_ms BIGINT NOT NULL,
        current_job TEXT,
        current_path TEXT,
        bytes_done BIGINT NOT NULL DEFAULT 0,
        bytes_per_second DOUBLE PRECISION NOT NULL DEFAULT 0,
        jobs_done INTEGER NOT NULL DEFAULT 0,
        stopped_ms BIGINT
      );
      ALTER TABLE ingest_runs ADD COLUMN worker TEXT;
    `,
  },
  {
    version: 3,
    name: 'probes',
    // Live probes (docs/fleet.md "Probes"): one row per probe name, its sessions, what they published (findings,
    // statistics, KLV track points: the body is the record as JSON; (session, run, seq) makes a redelivery harmless)
    // and the commands the hub leaves for them.
    sql: `
      CREATE TABLE fleet_probes (
        name TEXT PRIMARY KEY,
        instance TEXT NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        version TEXT NOT NULL,
        started_ms BIGINT NOT NULL,
        heartbeat_ms BIGINT NOT NULL,
        stopped_ms BIGINT,
        buffered_bytes BIGINT NOT NULL DEFAULT 0,
        buffer_limit_bytes BIGINT NOT NULL DEFAULT 0,
        dropped TEXT NOT NULL DEFAULT '{}'
      );
      CREATE TABLE probe_sessions (
        id TEXT PRIMARY KEY,
        probe TEXT NOT NULL,
        source TEXT NOT NULL,
        status TEXT NOT NULL,
        run INTEGER NOT NULL,
        created_ms BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL,
        stopped_ms BIGINT,
        state TEXT NOT NULL
      );
      CREATE INDEX probe_sessions_by_probe ON probe_sessions (probe, created_ms);
      CREATE TABLE probe_findings (
        id BIGSERIAL PRIMARY KEY,
        probe TEXT NOT NULL,
        session_id TEXT NOT NULL,
        run INTEGER NOT NULL,
        seq BIGINT NOT NULL,
        check_id TEXT NOT NULL,
        severity TEXT NOT NULL,
        body TEXT NOT NULL,
        UNIQUE (session_id, run, seq)
      );
      CREATE TABLE probe_statistics (
        id BIGSERIAL PRIMARY KEY,
        probe TEXT NOT NULL,
        session_id TEXT NOT NULL,
        run INTEGER NOT NULL,
        seq BIGINT NOT NULL,
        body TEXT NOT NULL,
        UNIQUE (session_id, run, seq)
      );
      CREATE TABLE probe_track_points (
        id BIGSERIAL PRIMARY KEY,
        probe TEXT NOT NULL,
        session_id TEXT NOT NULL,
        run INTEGER NOT NULL,
        seq BIGINT NOT NULL,
        body TEXT NOT NULL,
        UNIQUE (session_id, run, seq)
      );
      CREATE TABLE probe_commands (
        id BIGSERIAL PRIMARY KEY,
        probe TEXT NOT NULL,
        kind TEXT NOT NULL,
        body TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        claimed_ms BIGINT,
        done_ms BIGINT,
        result TEXT,
        error TEXT
      );
      CREATE INDEX probe_findings_by_session ON probe_findings (session_id, id);
      CREATE INDEX probe_statistics_by_session ON probe_statistics (session_id, id);
      CREATE INDEX probe_track_points_by_session ON probe_track_points (session_id, id);
      CREATE INDEX probe_commands_pending ON probe_commands (probe, id) WHERE claimed_ms IS NULL;
      -- A probe's batch in one statement (postgres-probes.ts): the lock that orders the rows' ids across probes is
      -- held only while the server writes, never across a round trip to a probe.
      CREATE FUNCTION klvscope_write_probe_batch(p_probe TEXT, p_batch JSONB) RETURNS VOID LANGUAGE plpgsql AS $fn$
      BEGIN
        PERFORM pg_advisory_xact_lock(1802266224);
        INSERT INTO probe_findings (probe, session_id, run, seq, check_id, severity, body)
          SELECT p_probe, r->>'sessionId', (r->>'run')::int, (r->>'seq')::bigint, r->>'checkId', r->>'severity', r->>'body'
          FROM jsonb_array_elements(p_batch->'findings') AS r ON CONFLICT DO NOTHING;
        INSERT INTO probe_statistics (probe, session_id, run, seq, body)
          SELECT p_probe, r->>'sessionId', (r->>'run')::int, (r->>'seq')::bigint, r->>'body'
          FROM jsonb_array_elements(p_batch->'statistics') AS r ON CONFLICT DO NOTHING;
        INSERT INTO probe_track_points (probe, session_id, run, seq, body)
          SELECT p_probe, r->>'sessionId', (r->>'run')::int, (r->>'seq')::bigint, r->>'body'
          FROM jsonb_array_elements(p_batch->'track') AS r ON CONFLICT DO NOTHING;
        INSERT INTO probe_sessions AS s (id, probe, source, status, run, created_ms, updated_ms, stopped_ms, state)
          SELECT r->>'id', p_probe, r->>'source', r->>'status', (r->>'run')::int, (r->>'createdMs')::bigint, (r->>'updatedMs')::bigint,
                 (r->>'stoppedMs')::bigint, (r->'state')::text
          FROM jsonb_array_elements(p_batch->'sessions') AS r
          ON CONFLICT (id) DO UPDATE SET probe = EXCLUDED.probe, status = EXCLUDED.status, run = EXCLUDED.run, updated_ms = EXCLUDED.updated_ms,
            stopped_ms = EXCLUDED.stopped_ms, state = EXCLUDED.state
          WHERE s.updated_ms <= EXCLUDED.updated_ms;
        PERFORM pg_notify('klvscope_probe_events', p_probe);
      END
      $fn$;
    `,
  },
];

/** The version a database is at (0 when klvscope never migrated it). */
export async function postgresSchemaVersion(runner: SqlRunner): Promise<number> {
  const [exists] = await runner.query<{ present: boolean }>(`SELECT to_regclass('klvscope_schema') IS NOT NULL AS present`);
  if (!exists?.present) return 0;
  const [row] = await runner.query<{ version: number | null }>('SELECT max(version) AS version FROM klvscope_schema');
  return row?.version ?? 0;
}

/** Brings the database to the last migration's version; returns the versions before and after. */
export async function migratePostgres(connection: PostgresConnection, migrations: readonly PostgresMigration[] = POSTGRES_CATALOG_MIGRATIONS): Promise<{ from: number; to: number }> {
  assertMigrationOrder(migrations);
  const latest = migrations.length;
  return connection.transaction(async (runner) => {
    await runner.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await runner.query(`CREATE TABLE IF NOT EXISTS klvscope_schema (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )`);
    const from = await postgresSchemaVersion(runner);
    if (from > latest) {
      throw new StoreError(
        'ERR_STORE_SCHEMA_TOO_NEW',
        `the catalog at ${connection.where} has schema version ${from}, newer than this klvscope knows (${latest}); upgrade klvscope on this node`,
        { label: 'catalog', version: from, supported: latest },
      );
    }
    let current: PostgresMigration | undefined;
    try {
      for (current of migrations.slice(from)) {
        await runner.query(current.sql);
        await runner.query('INSERT INTO klvscope_schema (version, name) VALUES ($1, $2)', [current.version, current.name]);
      }
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError(
        'ERR_STORE_MIGRATION_FAILED',
        `the catalog at ${connection.where} could not be migrated from schema version ${from} at migration ${current?.version} (${current?.name}): ${error instanceof Error ? error.message : String(error)}`,
        { label: 'catalog', from, failedVersion: current?.version },
        { cause: error },
      );
    }
    return { from, to: latest };
  });
}
