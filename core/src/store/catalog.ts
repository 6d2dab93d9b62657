/**
 * The archive's catalog as an interface (DESIGN.md "The fleet"): what every
 * node of a fleet must agree on (files by content, the paths they were seen
 * at, cached stage payloads, ingest runs, the archive derived from them, the
 * configuration and the rule templates). Two backends keep it: sql.js in a
 * data folder (sqljs-catalog.ts, the default) and PostgreSQL (an adapter,
 * so core gains no network dependency). One contract suite tests both.
 *
 * Every method is asynchronous, since a database server is; each write is
 * durable when its promise settles. `transaction` groups writes that must be
 * kept all together or not at all.
 */
import type { ArchiveEntry } from './catalog-archive.js';
import type { FileRecordRow, FileRow } from './catalog-files.js';
import type { IngestRunOutcome, IngestRunRow, NewIngestRun } from './catalog-ingest-runs.js';
import type { RuleTemplateRow } from './catalog-rule-templates.js';
import type { CachedStage, StagePayloadRow } from './catalog-stages.js';

export type CatalogBackend = 'sqljs' | 'postgres';

export interface FileCatalog {
  /** Adds the file if its hash is new; a known hash keeps its first path. */
  putFile(file: FileRow): Promise<void>;
  getFile(hash: string): Promise<FileRow | undefined>;
  /** Whether any known content has this size. */
  hasFileOfSize(size: number): Promise<boolean>;
  /** Records (or replaces) what content a path had at a size and modification time. */
  putFileRecord(record: FileRecordRow): Promise<void>;
  getFileRecord(path: string): Promise<FileRecordRow | undefined>;
}

export interface StageCatalog {
  /** Stores (or replaces) the payload of one stage under one key. */
  putStagePayload(row: StagePayloadRow): Promise<void>;
  getStagePayload<T = unknown>(hash: string, stage: CachedStage, compatibilityKey: string): Promise<StagePayloadRow<T> | undefined>;
  /** A cheap token (creation time and size) of the stored payload, without parsing it. */
  stagePayloadVersion(hash: string, stage: CachedStage, compatibilityKey: string): Promise<string | undefined>;
  /** The stages cached for a hash under a key, in workflow order. */
  cachedStages(hash: string, compatibilityKey: string): Promise<CachedStage[]>;
  /** Every payload of a hash, under any key, by stage and key. */
  listStagePayloads(hash: string): Promise<StagePayloadRow[]>;
  /** Deletes every payload of a hash, under any key; returns how many went. */
  deleteStagePayloads(hash: string): Promise<number>;
}

export interface IngestRunCatalog {
  /** Records a run as 'running'. */
  createIngestRun(run: NewIngestRun): Promise<IngestRunRow>;
  /** Ends a running run; false when there is no such run or it had already ended. */
  finishIngestRun(id: string, outcome: IngestRunOutcome): Promise<boolean>;
  getIngestRun(id: string): Promise<IngestRunRow | undefined>;
  /** Every run of a file hash, newest first. */
  listIngestRuns(hash: string): Promise<IngestRunRow[]>;
  /** The newest completed run of a file hash. */
  latestCompletedIngestRun(hash: string): Promise<IngestRunRow | undefined>;
  /** Sets the hash of a run started before its file's hash was known. */
  setIngestRunHash(id: string, hash: string): Promise<void>;
  deleteIngestRun(id: string): Promise<boolean>;
}

export interface ArchiveCatalog {
  /** Every entry (a file with a cached stage), most recently updated first. */
  listArchiveEntries(): Promise<ArchiveEntry[]>;
  getArchiveEntry(hash: string): Promise<ArchiveEntry | undefined>;
  /** The entry of the content last recorded at `path`. */
  findArchiveEntryByPath(path: string): Promise<ArchiveEntry | undefined>;
}

export interface ConfigCatalog {
  getConfigValue<T = unknown>(key: string): Promise<T | undefined>;
  setConfigValue(key: string, value: unknown, updatedMs: number): Promise<void>;
  /** Every key with its value, keys in alphabetical order. */
  readConfig(): Promise<Record<string, unknown>>;
  deleteConfigValue(key: string): Promise<boolean>;
}

export interface RuleTemplateCatalog {
  /** Saves a template; saving over an existing name keeps its creation time. */
  saveRuleTemplate(name: string, rules: unknown, nowMs: number): Promise<RuleTemplateRow>;
  getRuleTemplate<R = unknown>(name: string): Promise<RuleTemplateRow<R> | undefined>;
  /** Every template, by name. */
  listRuleTemplates(): Promise<RuleTemplateRow[]>;
  deleteRuleTemplate(name: string): Promise<boolean>;
}

/** One thing the consistency check found wrong, e.g. a file record naming content the catalog does not know. */
export interface CatalogInconsistency {
  kind: 'record-without-file' | 'payload-without-file' | 'completed-run-without-file' | 'run-files-without-run';
  /** The row at fault: a path, a hash or a run id. */
  subject: string;
}

/** The catalog's operations, the same inside and outside a transaction. */
export interface CatalogOperations extends FileCatalog, StageCatalog, IngestRunCatalog, ArchiveCatalog, ConfigCatalog, RuleTemplateCatalog {}

export interface Catalog extends CatalogOperations {
  readonly backend: CatalogBackend;
  /**
   * Runs `work` in one transaction: every write it makes through the catalog
   * it is given is kept, or (when it throws) none is. Transactions of one
   * catalog run one at a time.
   */
  transaction<T>(work: (catalog: CatalogOperations) => Promise<T>): Promise<T>;
  /** The schema version the catalog is at (its last migration). */
  schemaVersion(): Promise<number>;
  /** What the catalog holds that contradicts itself; [] when it is sound. */
  checkConsistency(): Promise<CatalogInconsistency[]>;
  /** Releases what the catalog holds open (connections; for sql.js, its file when it opened it). */
  close(): Promise<void>;
}
