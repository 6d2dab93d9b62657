/**
 * The store's public entry, `@klvscope/core/store` (DESIGN.md "store/"):
 * apart from the engine's root entry, so that a check, written against
 * `@klvscope/core`, cannot reach a database through it.
 */
export * from './datasets/index.js';
export * from './track/index.js';
export { Store, CATALOG_FILE_NAME, type StoreOptions } from './store.js';
export { StoreError, type StoreErrorCode } from './store-error.js';
export { diskFullError } from './disk-full-error.js';
export type {
  Catalog,
  CatalogBackend,
  CatalogInconsistency,
  CatalogOperations,
  FileCatalog,
  StageCatalog,
  IngestRunCatalog,
  ArchiveCatalog,
  ConfigCatalog,
  RuleTemplateCatalog,
} from './catalog.js';
export { createSqlJsCatalog, openSqlJsCatalog } from './sqljs-catalog.js';
export { CONSISTENCY_QUERIES } from './catalog-consistency.js';
export { defaultDataDir, DATA_DIR_ENV } from './data-dir.js';
export { DataFolderLock, LOCK_FILE_NAME, type LockHolder } from './data-folder-lock.js';
export { DatabaseFile, type DatabaseFileOptions, type DatabaseSnapshot } from './database-file.js';
export { loadSqlEngine } from './sql-engine.js';
export { migrateDatabase, schemaVersionOf, assertMigrationOrder, type Migration, type MigrationOutcome } from './schema-migrations.js';
export { inTransaction } from './sql-transaction.js';
export { CATALOG_MIGRATIONS } from './catalog-schema.js';
export { RUNS_FOLDER, RUN_INDEX_FILE, OPEN_PART_BYTES, StoredRun, runFolderPath, observationPartFile, pointPartFile, deleteStoredRun, type StoredRunOptions, type RunPartOptions } from './stored-run.js';
export { PartSequence, DEFAULT_PART_BYTES, type PartSequenceOptions } from './part-sequence.js';
export { createRunObservationWriter, type RunObservationWriter, type RunObservationWriterOptions } from './run-observation-writer.js';
export { createRunPointWriter, type RunPointWriter } from './run-point-writer.js';
export {
  liveDatabasePath,
  livePartsFolder,
  openLiveDatabase,
  DEFAULT_LIVE_PART_ROWS,
  LiveSessionDatabase,
  type LiveDatabaseOptions,
  type LiveRowLimits,
  type LiveRowPage,
} from './live-session-database.js';
export { putFile, getFile, hasFileOfSize, putFileRecord, getFileRecord, fileFrom, fileRecordFrom, type FileRow, type FileRecordRow } from './catalog-files.js';
export { putStagePayload, getStagePayload, stagePayloadVersion, cachedStages, deleteStagePayloads, stagePayloadFrom, listStagePayloads, CACHED_STAGES, type CachedStage, type StagePayloadRow } from './catalog-stages.js';
export {
  createIngestRun,
  finishIngestRun,
  getIngestRun,
  listIngestRuns,
  latestCompletedIngestRun,
  markRunningRunsInterrupted,
  deleteIngestRun,
  setIngestRunHash,
  ingestRunFrom,
  INTERRUPTED_RUN_ERROR,
  type IngestRunRow,
  type IngestRunStatus,
  type IngestRunEnd,
  type IngestRunOutcome,
  type NewIngestRun,
} from './catalog-ingest-runs.js';
export { listArchiveEntries, getArchiveEntry, findArchiveEntryByPath, archiveEntryFrom, type ArchiveEntry } from './catalog-archive.js';
export { putSession, getSession, listSessions, deleteSession, type SessionFilter, type SessionKind, type SessionRow } from './catalog-sessions.js';
export { getConfigValue, setConfigValue, readConfig, deleteConfigValue, configValueJson } from './catalog-config.js';
export { saveRuleTemplate, getRuleTemplate, listRuleTemplates, deleteRuleTemplate, ruleTemplateFrom, type RuleTemplateRow } from './catalog-rule-templates.js';
export { touchRecentSource, listRecentSources, removeRecentSource, type RecentSourceKind, type RecentSourceRow } from './catalog-recent-sources.js';
export type { Database as SqlDatabase } from 'sql.js';
export {
  createCheckPointWriter,
  readCheckPoints,
  CHECK_POINTS_SCHEMA,
  CHECK_POINTS_MIGRATIONS,
  type CheckPointWriter,
  type CheckPointQuery,
  type CheckPointPage,
  type PointPartSummary,
  type PointParts,
} from './run-check-points.js';
export type { Closable, DatabaseLease, LeaseFlags } from './database-cache.js';
export { writeFileAtomic, removeOrphanedTemporaries, type AtomicWriteOptions } from './atomic-write.js';
export { canonicalTime } from './relay-time.js';
export { openRelayDatabase, RELAY_FOLDER, RELAY_DATABASE_FILE_NAME, RELAY_MIGRATIONS, type RelayDatabase } from './relay-database.js';
export { type SqlRow, textColumn, numberColumn, jsonColumn } from './sql-query.js';
export { selectCollection, type CollectionField, type CollectionFilter, type CollectionPage, type CollectionQuery, type CollectionSort, type CollectionTable, type FilterOperator } from './relay-collection-query.js';
export {
  listRelayPlatforms,
  getRelayPlatform,
  putRelayPlatform,
  deleteRelayPlatform,
  getRelayChannel,
  listRelayChannels,
  deleteRelayChannel,
  setRelayChannelRuntime,
  RELAY_PLATFORMS_TABLE,
  NO_RELAY_ALARMS,
  type RelayChannelAlarms,
  type RelayChannelDefinition,
  type RelayChannelRow,
  type RelayChannelRuntime,
  type RelayOutputState,
  type RelayPlatformRecord,
  type RelayPlatformRow,
} from './relay-platforms.js';
export {
  RELAY_SERVER_STATUS,
  RELAY_LOG_MESSAGES,
  listRelayRecords,
  getRelayRecord,
  insertRelayRecord,
  nextRelayRecordId,
  trimRelayRecords,
  MAX_RELAY_RECORD_ID,
  replaceRelayRecord,
  deleteRelayRecord,
  type RelayRecordCollection,
  type RelayServerStatusRow,
  type RelayLogMessageRow,
} from './relay-records.js';
