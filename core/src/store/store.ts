/**
 * The store: a data folder holding the catalog database and one folder per
 * ingest run (stored-run.ts), owned by one process at a time
 * (data-folder-lock.ts).
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import type { Database as SqlDatabase } from 'sql.js';
import { join, resolve } from 'node:path';
import { CATALOG_MIGRATIONS } from './catalog-schema.js';
import { markRunningRunsInterrupted, retireIngestRun } from './catalog-ingest-runs.js';
import { DataFolderLock } from './data-folder-lock.js';
import { defaultDataDir } from './data-dir.js';
import { DatabaseFile } from './database-file.js';
import { openLiveDatabase, type LiveDatabaseOptions, type LiveSessionDatabase } from './live-session-database.js';
import { DatabaseCache, type DatabaseLease, type LeaseFlags } from './database-cache.js';
import { deleteStoredRun, runFolderPath, RUNS_FOLDER, StoredRun, type RunPartOptions, type StoredRunOptions } from './stored-run.js';
import { StoreError } from './store-error.js';

export const CATALOG_FILE_NAME = 'catalog.sqlite';

export interface StoreOptions {
  /** Default: defaultDataDir(), i.e. KLVSCOPE_DATA_DIR or ./data. */
  dataDir?: string;
  /** How runs' parts are written (stored-run.ts); tests make them small. */
  runParts?: RunPartOptions;
}

export class Store {
  #closed = false;

  private constructor(
    /** Absolute. */
    readonly dataDir: string,
    readonly catalog: DatabaseFile,
    private readonly lock: DataFolderLock,
    /** Runs left 'running' by a process that died, marked 'interrupted' by this open. */
    readonly interruptedRunIds: readonly string[],
    private readonly runParts: RunPartOptions | undefined,
  ) {
    this.runs = new DatabaseCache<StoredRunOptions, StoredRun>((runId, options) => StoredRun.open(dataDir, runId, { ...runParts, ...options }));
    // Only ended sessions are read through it: their databases exist, nothing is created.
    this.liveSessions = new DatabaseCache<object, LiveSessionDatabase>((sessionId) => openLiveDatabase(dataDir, sessionId));
  }

  /** The runs kept open (see leaseRun). */
  private readonly runs: DatabaseCache<StoredRunOptions, StoredRun>;
  /** The databases of ended live sessions kept open (see readLiveDatabase). */
  private readonly liveSessions: DatabaseCache<object, LiveSessionDatabase>;

  /**
   * Takes the data folder (creating it if needed), opens and migrates the
   * catalog, marks the runs a dead process left running as interrupted, and
   * saves. Throws ERR_STORE_LOCKED when another process holds the folder.
   */
  static async open(options: StoreOptions = {}): Promise<Store> {
    const dataDir = resolve(options.dataDir ?? defaultDataDir());
    await mkdir(dataDir, { recursive: true });
    const lock = await DataFolderLock.acquire(dataDir);
    let catalog: DatabaseFile | undefined;
    try {
      catalog = await DatabaseFile.open(join(dataDir, CATALOG_FILE_NAME), { label: 'catalog', migrations: CATALOG_MIGRATIONS });
      // Safe only under the lock: no live process can own a 'running' run now.
      const interrupted = markRunningRunsInterrupted(catalog.db);
      const retired = await retireSingleFileRuns(dataDir, catalog.db);
      // Writes a new catalog, a migrated one, or one with runs just marked interrupted, at once.
      await catalog.saveIfChanged();
      // An interrupted run's parts are incomplete and nothing will read them: free the space.
      for (const id of interrupted) await deleteStoredRun(dataDir, id);
      for (const file of retired) await rm(file, { force: true });
      return new Store(dataDir, catalog, lock, interrupted, options.runParts);
    } catch (error) {
      await catalog?.close();
      await lock.release();
      throw error;
    }
  }

  get isOpen(): boolean {
    return !this.#closed;
  }

  /** Writes the catalog atomically; call after each change that must survive a crash. */
  saveCatalog(): Promise<void> {
    this.assertOpen();
    return this.catalog.save();
  }

  /** `<dataDir>/runs/<runId>`, the run's folder. */
  runFolderPath(runId: string): string {
    return runFolderPath(this.dataDir, runId);
  }

  /**
   * Leases a run from those the store keeps open (database-cache.ts):
   * shared, not to be closed; give it back with `release()`.
   */
  leaseRun(runId: string, options?: StoredRunOptions & LeaseFlags): Promise<DatabaseLease<StoredRun>> {
    this.assertOpen();
    return this.runs.lease(runId, options);
  }

  /** Reads from a run (shared, open): leased for the read, given back after it, even when it throws. */
  async readRun<T>(runId: string, read: (run: StoredRun) => T): Promise<T> {
    this.assertOpen();
    return this.runs.read(runId, read);
  }

  /** Opens (or with `create`, makes) a private copy of a run; the caller closes it. */
  openRun(runId: string, options?: StoredRunOptions): Promise<StoredRun> {
    this.assertOpen();
    return StoredRun.open(this.dataDir, runId, { ...this.runParts, ...options });
  }

  /** Deletes a run's folder (closing it first if open); false when there was none. */
  async deleteRun(runId: string): Promise<boolean> {
    this.assertOpen();
    await this.runs.evict(runId);
    return deleteStoredRun(this.dataDir, runId);
  }

  /** Opens (or with `create`, makes) a live session's database (live-session-database.ts); the caller saves and closes it. */
  openLiveDatabase(sessionId: string, options?: LiveDatabaseOptions): Promise<LiveSessionDatabase> {
    this.assertOpen();
    return openLiveDatabase(this.dataDir, sessionId, options);
  }

  /**
   * Reads from an ended live session's database, kept open between reads as
   * the run databases are (its session wrote it and closed it; nothing writes
   * it any more). The active session's database is its session's own.
   */
  async readLiveDatabase<T>(sessionId: string, read: (database: LiveSessionDatabase) => Promise<T>): Promise<T> {
    this.assertOpen();
    // Leased for the whole read: a page may open the session's parts from disk.
    const lease = await this.liveSessions.lease(sessionId);
    try {
      return await read(lease.database);
    } finally {
      lease.release();
    }
  }

  /** Saves the catalog, closes it and releases the data folder; closes the databases it keeps open. Those opened with openRun or openLiveDatabase are their openers' to close. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.runs.closeAll();
      await this.liveSessions.closeAll();
      await this.catalog.saveIfChanged();
    } finally {
      await this.catalog.close();
      await this.lock.release();
    }
  }

  private assertOpen(): void {
    if (this.#closed) throw new StoreError('ERR_STORE_CLOSED', `the store of ${this.dataDir} is closed`, { dataDir: this.dataDir });
  }
}

/**
 * Runs stored by a klvscope before runs were kept in parts (one
 * `runs/<runId>.sqlite` each) are marked failed, so no cached stage reuses
 * them and the next inspection ingests the file again; returns their files,
 * to delete once the catalog is saved.
 */
async function retireSingleFileRuns(dataDir: string, catalog: SqlDatabase): Promise<string[]> {
  const folder = join(dataDir, RUNS_FOLDER);
  const names = await readdir(folder).catch(() => [] as string[]);
  const files = names.filter((name) => name.endsWith('.sqlite'));
  for (const name of files) retireIngestRun(catalog, name.slice(0, -'.sqlite'.length));
  return files.map((name) => join(folder, name));
}
