/**
 * The catalog (catalog.ts) on sql.js: the embedded default, one SQLite file
 * in the data folder. Its operations are the catalog-*.ts functions; a write
 * outside a transaction saves the file (atomically) before it settles, a
 * transaction saves once at its commit. sql.js is one connection, so every
 * operation waits for the transaction in progress, if any.
 */
import type { Database } from 'sql.js';
import { findArchiveEntryByPath, getArchiveEntry, listArchiveEntries } from './catalog-archive.js';
import { deleteConfigValue, getConfigValue, readConfig, setConfigValue } from './catalog-config.js';
import { CONSISTENCY_QUERIES } from './catalog-consistency.js';
import { getFile, getFileRecord, hasFileOfSize, putFile, putFileRecord } from './catalog-files.js';
import { createIngestRun, deleteIngestRun, finishIngestRun, getIngestRun, latestCompletedIngestRun, listIngestRuns, setIngestRunHash } from './catalog-ingest-runs.js';
import { deleteRuleTemplate, getRuleTemplate, listRuleTemplates, saveRuleTemplate } from './catalog-rule-templates.js';
import { CATALOG_MIGRATIONS } from './catalog-schema.js';
import { cachedStages, deleteStagePayloads, getStagePayload, listStagePayloads, putStagePayload, stagePayloadVersion, type CachedStage } from './catalog-stages.js';
import type { Catalog, CatalogInconsistency, CatalogOperations } from './catalog.js';
import { DatabaseFile } from './database-file.js';
import { schemaVersionOf } from './schema-migrations.js';
import { selectAll, textColumn } from './sql-query.js';

/** Runs one operation on the database: `write` says whether it changes it. */
type RunOperation = <T>(operation: (db: Database) => T, write: boolean) => Promise<T>;

/** Over a catalog file already open (the Store's); with `owned`, close() closes the file too. */
export function createSqlJsCatalog(file: DatabaseFile, options: { owned?: boolean } = {}): Catalog {
  /** The operation or transaction in progress; the next one waits for it. */
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = turn.catch(() => undefined).then(work);
    turn = next;
    return next;
  };
  const operations = catalogOperations((operation, write) =>
    inTurn(async () => {
      const result = operation(file.db);
      if (write) await file.saveIfChanged();
      return result;
    }),
  );
  return {
    backend: 'sqljs',
    ...operations,
    transaction: (work) =>
      inTurn(async () => {
        const db = file.db;
        let open = true;
        const inside = catalogOperations((operation) => (open ? Promise.resolve(operation(db)) : Promise.reject(new Error('the catalog transaction has ended'))));
        db.run('BEGIN IMMEDIATE');
        try {
          const result = await work(inside);
          db.run('COMMIT');
          open = false;
          await file.saveIfChanged();
          return result;
        } catch (error) {
          if (open) db.run('ROLLBACK');
          open = false;
          throw error;
        }
      }),
    schemaVersion: () => inTurn(() => Promise.resolve(schemaVersionOf(file.db))),
    checkConsistency: () =>
      inTurn(() =>
        Promise.resolve<CatalogInconsistency[]>(CONSISTENCY_QUERIES.flatMap(({ kind, sql }) => selectAll(file.db, sql).map((row) => ({ kind, subject: textColumn(row, 'subject') })))),
      ),
    close: async () => {
      await turn.catch(() => undefined);
      if (options.owned) await file.close();
    },
  };
}

/** Opens (or makes) the catalog file at `path`, migrated; the catalog's close() closes it. */
export async function openSqlJsCatalog(path: string): Promise<Catalog> {
  return createSqlJsCatalog(await DatabaseFile.open(path, { label: 'catalog', migrations: CATALOG_MIGRATIONS }), { owned: true });
}

/** The catalog's operations as the catalog-*.ts functions, each run through `run`. */
function catalogOperations(run: RunOperation): CatalogOperations {
  return {
    putFile: (file) => run((db) => putFile(db, file), true),
    getFile: (hash) => run((db) => getFile(db, hash), false),
    hasFileOfSize: (size) => run((db) => hasFileOfSize(db, size), false),
    putFileRecord: (record) => run((db) => putFileRecord(db, record), true),
    getFileRecord: (path) => run((db) => getFileRecord(db, path), false),
    putStagePayload: (row) => run((db) => putStagePayload(db, row), true),
    getStagePayload: <T>(hash: string, stage: CachedStage, key: string) => run((db) => getStagePayload<T>(db, hash, stage, key), false),
    stagePayloadVersion: (hash, stage, key) => run((db) => stagePayloadVersion(db, hash, stage, key), false),
    cachedStages: (hash, key) => run((db) => cachedStages(db, hash, key), false),
    listStagePayloads: (hash) => run((db) => listStagePayloads(db, hash), false),
    deleteStagePayloads: (hash) => run((db) => deleteStagePayloads(db, hash), true),
    createIngestRun: (newRun) => run((db) => createIngestRun(db, newRun), true),
    finishIngestRun: (id, outcome) => run((db) => finishIngestRun(db, id, outcome), true),
    getIngestRun: (id) => run((db) => getIngestRun(db, id), false),
    listIngestRuns: (hash) => run((db) => listIngestRuns(db, hash), false),
    latestCompletedIngestRun: (hash) => run((db) => latestCompletedIngestRun(db, hash), false),
    setIngestRunHash: (id, hash) => run((db) => setIngestRunHash(db, id, hash), true),
    deleteIngestRun: (id) => run((db) => deleteIngestRun(db, id), true),
    listArchiveEntries: () => run((db) => listArchiveEntries(db), false),
    getArchiveEntry: (hash) => run((db) => getArchiveEntry(db, hash), false),
    findArchiveEntryByPath: (path) => run((db) => findArchiveEntryByPath(db, path), false),
    getConfigValue: <T>(key: string) => run((db) => getConfigValue<T>(db, key), false),
    setConfigValue: (key, value, updatedMs) => run((db) => setConfigValue(db, key, value, updatedMs), true),
    readConfig: () => run((db) => readConfig(db), false),
    deleteConfigValue: (key) => run((db) => deleteConfigValue(db, key), true),
    saveRuleTemplate: (name, rules, nowMs) => run((db) => saveRuleTemplate(db, name, rules, nowMs), true),
    getRuleTemplate: <R>(name: string) => run((db) => getRuleTemplate<R>(db, name), false),
    listRuleTemplates: () => run((db) => listRuleTemplates(db), false),
    deleteRuleTemplate: (name) => run((db) => deleteRuleTemplate(db, name), true),
  };
}
