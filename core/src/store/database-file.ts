/**
 * One SQLite database file, held in memory by sql.js and written back whole
 * by save(). sql.js has no file system of its own, so durability is ours:
 * every save is atomic (atomic-write.ts), and a crash mid-save leaves the
 * previous file intact.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Database } from 'sql.js';
import { removeOrphanedTemporaries, writeFileAtomic } from './atomic-write.js';
import { migrateDatabase, schemaVersionOf, type Migration, type MigrationOutcome } from './schema-migrations.js';
import { loadSqlEngine, loadedSqlEngine } from './sql-engine.js';
import { diskFullError } from './disk-full-error.js';
import { StoreError } from './store-error.js';
import { exportedFileInRoom, openOnRoom, releaseRoom, withRoomToGrow } from './sqlite-image-room.js';

export interface DatabaseFileOptions {
  /** Names the database in error messages ('catalog', 'ingest run 42'). */
  label: string;
  /** Applied at open (schema-migrations.ts). */
  migrations: readonly Migration[];
  /** When false, a missing file is ERR_STORE_NOT_FOUND instead of a new empty database. Default true. */
  create?: boolean;
}

export interface NewDatabaseOptions extends Omit<DatabaseFileOptions, 'create'> {
  /**
   * The size the database is expected to reach, made room for at once
   * (sqlite-image-room.ts): a database that grows to it is not copied at
   * every step of its growth. Past it, it grows as any other.
   */
  capacityBytes?: number;
}

/** The database as it was at one moment, for DatabaseFile.restore(). */
export interface DatabaseSnapshot {
  readonly bytes: Uint8Array;
  /** The count of exports (sql.js before 1.16 reopened the database at each, restarting SQLite's count of changes) and of changes after it. */
  readonly exports: number;
  readonly changes: number;
}

export class DatabaseFile {
  #db: Database | undefined;
  /**
   * How many times the database was exported (saves and snapshots). sql.js before 1.16 reopened the database at each
   * export, which restarted SQLite's count of changes; 1.16 backs it up into a file of its own and the count goes on.
   * Counting exports keeps restore()'s "nothing changed" right with either.
   */
  #exports = 0;
  /** Saves run one after another, so the file on disk only moves forward. */
  #saving: Promise<void> = Promise.resolve();
  /** Set while the file on disk lacks something the schema has (a new database, a migration): not counted as row changes. */
  #unsaved: boolean;
  /** SQLite's count of changed rows when the last save took its snapshot. */
  #changesAtSave: number;
  /** The room the database was opened on (sqlite-image-room.ts), given back when it is closed. */
  #room: Uint8Array | undefined;
  /** Whether sql.js holds the database's file in the room itself (not a copy). */
  #inRoom = false;

  private constructor(
    readonly path: string,
    readonly label: string,
    db: Database,
    /** The schema versions before and after the migrations run at open. */
    readonly migration: MigrationOutcome,
    /** False when open() started a new database (nothing on disk until the first save). */
    readonly existed: boolean,
  ) {
    this.#db = db;
    this.#unsaved = !existed || migration.from !== migration.to;
    this.#changesAtSave = totalChanges(db);
  }

  static async open(path: string, options: DatabaseFileOptions): Promise<DatabaseFile> {
    const { label, migrations, create = true } = options;
    await mkdir(dirname(path), { recursive: true });
    await removeOrphanedTemporaries(path);
    const bytes = await readExisting(path);
    if (bytes === undefined && !create) {
      throw new StoreError('ERR_STORE_NOT_FOUND', `${label} database not found at ${path}`, { label, path });
    }
    const SQL = await loadSqlEngine();
    const db = new SQL.Database(bytes);
    try {
      // sql.js reads the header lazily: the first statement tells a bad file.
      schemaVersionOf(db);
    } catch (error) {
      db.close();
      throw new StoreError('ERR_STORE_CORRUPT', `${label} at ${path} is not a readable SQLite database: ${(error as Error).message}`, { label, path }, { cause: error });
    }
    try {
      const migration = migrateDatabase(db, migrations, `${label} at ${path}`);
      return new DatabaseFile(path, label, db, migration, bytes !== undefined);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * A new database at `path`, in memory until its first save. Synchronous
   * (loadSqlEngine() must have settled): a writer starts its next part in
   * the middle of an observation sink, which cannot wait. The folder must exist.
   */
  static startNew(path: string, options: NewDatabaseOptions): DatabaseFile {
    const { Database } = loadedSqlEngine();
    const { label, migrations, capacityBytes } = options;
    let db = new Database();
    try {
      const migration = migrateDatabase(db, migrations, `${label} at ${path}`);
      let room: Uint8Array | undefined;
      let inRoom = false;
      if (capacityBytes !== undefined) {
        const image = db.export();
        db.close();
        const file = withRoomToGrow(image, capacityBytes);
        const { opened, handedOver } = openOnRoom(file, (bytes) => new Database(bytes));
        db = opened;
        if (file !== image) room = file;
        inRoom = handedOver;
      }
      const database = new DatabaseFile(path, label, db, migration, false);
      database.#room = room;
      database.#inRoom = room !== undefined && inRoom;
      return database;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** The database's size as a file (its pages), what a save writes. */
  get byteSize(): number {
    const [result] = this.db.exec('SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()');
    return Number(result.values[0][0]);
  }

  get isOpen(): boolean {
    return this.#db !== undefined;
  }

  /** The in-memory database; changes reach the disk at the next save(). */
  get db(): Database {
    if (this.#db === undefined) throw new StoreError('ERR_STORE_CLOSED', `${this.label} at ${this.path} is closed`, { label: this.label, path: this.path });
    return this.#db;
  }

  get schemaVersion(): number {
    return schemaVersionOf(this.db);
  }

  /**
   * Writes the database as it is now. The snapshot is taken when save() is
   * called, so later changes wait for the next save. Never call it inside a
   * transaction: the snapshot would hold the uncommitted half.
   */
  save(): Promise<void> {
    return this.#write(this.#export());
  }

  /**
   * Saves the database as it is now, then closes it: for a database no
   * change follows (a completed part). One held in its room is saved from
   * the room, as export() would give it (sqlite-image-room.ts), not copied.
   */
  saveAndClose(): Promise<void> {
    const byteSize = this.#inRoom ? this.byteSize : Infinity;
    const room = this.#room;
    // Past its room, the file has moved to a larger array of sql.js's.
    const saved = room !== undefined && byteSize <= room.byteLength ? this.#write(exportedFileInRoom(room, byteSize)) : this.save();
    this.#inRoom = false;
    return saved.finally(() => this.close());
  }

  #write(bytes: Uint8Array): Promise<void> {
    this.#unsaved = false;
    const written = this.#saving
      .then(() => writeFileAtomic(this.path, bytes))
      .catch((error: unknown) => {
        // The file on disk lacks this snapshot: the next saveIfChanged must write again, changed rows or not.
        this.#unsaved = true;
        throw saveRefusal(error, this.label, this.path) ?? error;
      });
    this.#saving = written.catch(() => undefined); // one failed save does not block the next
    return written;
  }

  /**
   * The database as it is now, to go back to with restore() when a change
   * must be undone whole (issue 35: a relay change refused for a full disk
   * must not wait in memory to be saved later). Not inside a transaction,
   * as save(). Leaves what is unsaved unsaved.
   */
  snapshot(): DatabaseSnapshot {
    const unsaved = this.hasChanges;
    const bytes = this.#export();
    if (unsaved) this.#unsaved = true;
    return { bytes, exports: this.#exports, changes: this.#changesAtSave };
  }

  /**
   * Puts the in-memory database back as it was at `snapshot`; false when
   * nothing had changed since. What is on disk is untouched: the next save
   * writes the database as restored (a save made since the snapshot is
   * thereby undone on disk too).
   */
  restore(snapshot: DatabaseSnapshot): boolean {
    const current = this.db;
    if (this.#exports === snapshot.exports && totalChanges(current) === snapshot.changes) return false;
    this.#db = new (loadedSqlEngine().Database)(snapshot.bytes);
    current.close();
    if (this.#room !== undefined) releaseRoom(this.#room);
    this.#room = undefined;
    this.#changesAtSave = totalChanges(this.#db);
    this.#unsaved = true;
    return true;
  }

  /** The database's bytes; the count of changes is read after export(), which restarted it in sql.js before 1.16. */
  #export(): Uint8Array {
    const bytes = this.db.export();
    this.#exports++;
    this.#changesAtSave = totalChanges(this.db);
    return bytes;
  }

  /** Whether anything changed since the last save (or the file is new or was migrated). */
  get hasChanges(): boolean {
    return this.#unsaved || totalChanges(this.db) !== this.#changesAtSave;
  }

  /** Saves only when something changed: a save is a write and two fsyncs, the slowest part of a cached lookup. */
  async saveIfChanged(): Promise<void> {
    if (this.hasChanges) await this.save();
    else await this.#saving;
  }

  /** Waits for pending saves, then frees the memory. Does not save: call save() first to keep changes. */
  async close(): Promise<void> {
    const db = this.#db;
    if (db === undefined) return;
    this.#db = undefined;
    await this.#saving;
    db.close();
    if (this.#room !== undefined) releaseRoom(this.#room);
    this.#room = undefined;
  }
}

/** A save refused for want of space, naming the folder and the file (issue 35: a full disk says so). */
function saveRefusal(error: unknown, label: string, path: string): StoreError | null {
  return diskFullError(error, dirname(path), `${label} was not saved; its previous file is intact, and it is saved again once there is space`, { label, path });
}

function totalChanges(db: Database): number {
  return db.exec('SELECT total_changes()')[0].values[0][0] as number;
}

async function readExisting(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
