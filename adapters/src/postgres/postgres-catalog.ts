/**
 * The catalog (core's catalog.ts) on PostgreSQL, for a fleet of nodes that
 * share one archive (docs/fleet.md). The same tables as the SQLite catalog
 * and the same row readers; each statement commits on its own unless run
 * inside `transaction`.
 */
import { randomUUID } from 'node:crypto';
import {
  archiveEntryFrom,
  CACHED_STAGES,
  configValueJson,
  CONSISTENCY_QUERIES,
  fileFrom,
  fileRecordFrom,
  ingestRunFrom,
  jsonColumn,
  ruleTemplateFrom,
  stagePayloadFrom,
  textColumn,
  type Catalog,
  type CatalogOperations,
  type IngestRunRow,
  type SqlRow,
} from '@klvscope/core/store';
import { PostgresConnection, type PostgresConnectionOptions, type SqlRunner } from './postgres-connection.js';
import { migratePostgres, postgresSchemaVersion } from './postgres-migrations.js';

/** Connects to the catalog at `url` (postgres://…) and migrates it; throws ERR_CATALOG_UNAVAILABLE when the server cannot be reached. */
export async function connectPostgresCatalog(url: string, options: PostgresConnectionOptions = {}): Promise<Catalog & { readonly connection: PostgresConnection }> {
  const connection = new PostgresConnection(url, options);
  try {
    await migratePostgres(connection);
  } catch (error) {
    await connection.end();
    throw error;
  }
  return {
    backend: 'postgres',
    connection,
    ...postgresCatalogOperations(connection),
    transaction: (work) => connection.transaction((runner) => work(postgresCatalogOperations(runner))),
    schemaVersion: () => postgresSchemaVersion(connection),
    checkConsistency: async () => {
      const found = await Promise.all([...CONSISTENCY_QUERIES, RUN_FILES_WITHOUT_RUN].map(async ({ kind, sql }) => (await connection.query<SqlRow>(sql)).map((row) => ({ kind, subject: textColumn(row, 'subject') }))));
      return found.flat();
    },
    close: () => connection.end(),
  };
}

/** A fleet's own inconsistency: run files of no completed run (a worker that died while storing them leaves these until a sweep). */
const RUN_FILES_WITHOUT_RUN = {
  kind: 'run-files-without-run' as const,
  sql: "SELECT DISTINCT p.run_id AS subject FROM run_parts p WHERE NOT EXISTS (SELECT 1 FROM ingest_runs r WHERE r.id = p.run_id AND r.status = 'completed') ORDER BY 1",
};

const ARCHIVE_ENTRY_QUERY = `
  SELECT f.hash, f.size, f.first_path, string_agg(DISTINCT s.stage, ',') AS stages, max(s.created_ms) AS updated_ms
  FROM files f JOIN stage_payloads s ON s.hash = f.hash`;

/** The operations over a runner: the pool (each statement its own transaction) or one transaction's client. */
export function postgresCatalogOperations(db: SqlRunner): CatalogOperations {
  const rows = (sql: string, params?: readonly unknown[]) => db.query<SqlRow>(sql, params);
  const first = async (sql: string, params?: readonly unknown[]) => (await rows(sql, params))[0];
  const changed = async (sql: string, params?: readonly unknown[]) => (await rows(`WITH changed AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM changed`, params))[0]?.n as number;
  return {
    async putFile(file) {
      await rows('INSERT INTO files (hash, size, first_path, first_seen_ms) VALUES ($1, $2, $3, $4) ON CONFLICT (hash) DO NOTHING', [file.hash, file.size, file.firstPath, file.firstSeenMs]);
    },
    async getFile(hash) {
      const row = await first('SELECT * FROM files WHERE hash = $1', [hash]);
      return row && fileFrom(row);
    },
    async hasFileOfSize(size) {
      return (await first('SELECT 1 AS known FROM files WHERE size = $1 LIMIT 1', [size])) !== undefined;
    },
    async putFileRecord(record) {
      await rows(
        `INSERT INTO file_records (path, size, mtime_ms, hash, checked_ms) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, hash = excluded.hash, checked_ms = excluded.checked_ms`,
        [record.path, record.size, record.mtimeMs, record.hash, record.checkedMs],
      );
    },
    async getFileRecord(path) {
      const row = await first('SELECT * FROM file_records WHERE path = $1', [path]);
      return row && fileRecordFrom(row);
    },
    async putStagePayload(row) {
      await rows(
        `INSERT INTO stage_payloads (hash, stage, compatibility_key, payload, created_ms) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (hash, stage, compatibility_key) DO UPDATE SET payload = excluded.payload, created_ms = excluded.created_ms`,
        [row.hash, row.stage, row.compatibilityKey, JSON.stringify(row.payload), row.createdMs],
      );
    },
    async getStagePayload<T>(hash: string, stage: string, key: string) {
      const row = await first('SELECT * FROM stage_payloads WHERE hash = $1 AND stage = $2 AND compatibility_key = $3', [hash, stage, key]);
      return row && stagePayloadFrom<T>(row);
    },
    async stagePayloadVersion(hash, stage, key) {
      const row = await first('SELECT created_ms, octet_length(payload) AS size FROM stage_payloads WHERE hash = $1 AND stage = $2 AND compatibility_key = $3', [hash, stage, key]);
      return row && `${row.created_ms as number}:${row.size as number}`;
    },
    async cachedStages(hash, key) {
      const present = new Set((await rows('SELECT stage FROM stage_payloads WHERE hash = $1 AND compatibility_key = $2', [hash, key])).map((row) => textColumn(row, 'stage')));
      return CACHED_STAGES.filter((stage) => present.has(stage));
    },
    async listStagePayloads(hash) {
      return (await rows('SELECT * FROM stage_payloads WHERE hash = $1 ORDER BY stage COLLATE "C", compatibility_key COLLATE "C"', [hash])).map((row) => stagePayloadFrom(row));
    },
    deleteStagePayloads: (hash) => changed('DELETE FROM stage_payloads WHERE hash = $1', [hash]),
    async createIngestRun(run) {
      const id = run.id ?? randomUUID();
      await rows(`INSERT INTO ingest_runs (id, hash, path, status, started_ms) VALUES ($1, $2, $3, 'running', $4)`, [id, run.hash, run.path, run.startedMs]);
      return { id, hash: run.hash, path: run.path, status: 'running', startedMs: run.startedMs, finishedMs: null, counts: {}, timings: {}, error: null } satisfies IngestRunRow;
    },
    async finishIngestRun(id, outcome) {
      const n = await changed(
        `UPDATE ingest_runs SET status = $2, finished_ms = $3, counts = $4, timings = $5, error = $6 WHERE id = $1 AND status = 'running'`,
        [id, outcome.status, outcome.finishedMs, JSON.stringify(outcome.counts ?? {}), JSON.stringify(outcome.timings ?? {}), outcome.error ?? null],
      );
      return n === 1;
    },
    async getIngestRun(id) {
      const row = await first('SELECT * FROM ingest_runs WHERE id = $1', [id]);
      return row && ingestRunFrom(row);
    },
    async listIngestRuns(hash) {
      return (await rows('SELECT * FROM ingest_runs WHERE hash = $1 ORDER BY started_ms DESC, seq DESC', [hash])).map(ingestRunFrom);
    },
    async latestCompletedIngestRun(hash) {
      const row = await first(`SELECT * FROM ingest_runs WHERE hash = $1 AND status = 'completed' ORDER BY started_ms DESC, seq DESC LIMIT 1`, [hash]);
      return row && ingestRunFrom(row);
    },
    async setIngestRunHash(id, hash) {
      await rows('UPDATE ingest_runs SET hash = $2 WHERE id = $1', [id, hash]);
    },
    deleteIngestRun: async (id) => (await changed('DELETE FROM ingest_runs WHERE id = $1', [id])) === 1,
    async listArchiveEntries() {
      return (await rows(`${ARCHIVE_ENTRY_QUERY} GROUP BY f.hash ORDER BY updated_ms DESC, f.hash`)).map(archiveEntryFrom);
    },
    async getArchiveEntry(hash) {
      const row = await first(`${ARCHIVE_ENTRY_QUERY} WHERE f.hash = $1 GROUP BY f.hash`, [hash]);
      return row && archiveEntryFrom(row);
    },
    async findArchiveEntryByPath(path) {
      const row = await first(`${ARCHIVE_ENTRY_QUERY} JOIN file_records r ON r.hash = f.hash WHERE r.path = $1 GROUP BY f.hash`, [path]);
      return row && archiveEntryFrom(row);
    },
    async getConfigValue<T>(key: string) {
      const row = await first('SELECT value FROM config WHERE key = $1', [key]);
      return row && jsonColumn<T>(row, 'value');
    },
    async setConfigValue(key, value, updatedMs) {
      await rows('INSERT INTO config (key, value, updated_ms) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_ms = excluded.updated_ms', [
        key,
        configValueJson(key, value),
        updatedMs,
      ]);
    },
    async readConfig() {
      const config: Record<string, unknown> = {};
      // COLLATE "C": the byte order SQLite's ORDER BY gives, whatever the database's locale.
      for (const row of await rows('SELECT key, value FROM config ORDER BY key COLLATE "C"')) config[textColumn(row, 'key')] = jsonColumn(row, 'value');
      return config;
    },
    deleteConfigValue: async (key) => (await changed('DELETE FROM config WHERE key = $1', [key])) === 1,
    async saveRuleTemplate(name, rules, nowMs) {
      const row = await first(
        `INSERT INTO rule_templates (name, rules, created_ms, updated_ms) VALUES ($1, $2, $3, $3)
         ON CONFLICT (name) DO UPDATE SET rules = excluded.rules, updated_ms = excluded.updated_ms RETURNING *`,
        [name, JSON.stringify(rules), nowMs],
      );
      return ruleTemplateFrom<unknown>(row ?? {});
    },
    async getRuleTemplate<R>(name: string) {
      const row = await first('SELECT * FROM rule_templates WHERE name = $1', [name]);
      return row && ruleTemplateFrom<R>(row);
    },
    async listRuleTemplates() {
      return (await rows('SELECT * FROM rule_templates ORDER BY name COLLATE "C"')).map((row) => ruleTemplateFrom(row));
    },
    deleteRuleTemplate: async (name) => (await changed('DELETE FROM rule_templates WHERE name = $1', [name])) === 1,
  };
}
