/**
 * A table written as a sequence of part databases of bounded size, so that
 * memory does not grow with what is written: sql.js holds a database whole
 * in memory, and a recording of hours makes gigabytes of rows. When the
 * current part has grown past `partBytes` its writer is finished, the part
 * saved (atomically, in the background) and released, and the next begins.
 *
 * Saves run one at a time in order; `backlog()` tells a producer faster than
 * the disk to wait, so at most one finished part waits for its save.
 */
import { join } from 'node:path';
import { DatabaseFile } from './database-file.js';
import type { Migration } from './schema-migrations.js';

/**
 * About 4 MB per part. A part costs several times its size while it lives: sql.js's in-memory file grows
 * in steps (each a copy), a save snapshots it whole, a read copies the file in. Writing 1.2 GB of TS, the
 * peak RSS was 267 MB with parts of 16 MB, 236 with 8, 191 with 4 (shared machine, tsx included).
 */
export const DEFAULT_PART_BYTES = 4 * 1024 * 1024;

/**
 * A part ends after the transaction that takes it past `partBytes`: the room made for it at once
 * (sqlite-image-room.ts) holds that last transaction too (the 2 GB bench recording's parts end at 5.0 to 5.3 MB of 4).
 */
const PART_ROOM_FACTOR = 1.5;

export interface PartSequenceOptions<S> {
  folder: string;
  /** The file name of part `n` (from 1). */
  fileName(part: number): string;
  /** Names the parts in error messages. */
  label: string;
  migrations: readonly Migration[];
  partBytes: number;
  /**
   * Called when a part is complete, before it is saved: the writer on it
   * finishes (commits, frees its statements) and says what the part holds.
   */
  close(database: DatabaseFile): S;
  /** Called on each new part (the first included): the writer starts on it. */
  open(database: DatabaseFile): void;
}

export class PartSequence<S> {
  #current: DatabaseFile;
  #saving: Promise<void> = Promise.resolve();
  #pendingSaves = 0;
  #failure: Error | undefined = undefined;
  readonly #summaries: S[] = [];

  constructor(private readonly options: PartSequenceOptions<S>) {
    this.#current = this.start(1);
  }

  /** The part being written. */
  get current(): DatabaseFile {
    return this.#current;
  }

  /** What each completed part holds, in order. */
  get summaries(): readonly S[] {
    return this.#summaries;
  }

  /**
   * Between transactions only: when the current part has outgrown the
   * bound, completes it and begins the next. Throws the error of a save that
   * failed in the background.
   */
  rollIfFull(): void {
    this.throwIfFailed();
    if (this.#current.byteSize < this.options.partBytes) return;
    this.complete();
    this.#current = this.start(this.#summaries.length + 1);
  }

  /** Resolves once at most one save waits (null when none needs waiting for). */
  backlog(): Promise<void> | null {
    return this.#pendingSaves > 1 ? this.#saving : null;
  }

  /** Completes the last part and waits for every save; returns the parts' summaries. */
  async finish(): Promise<readonly S[]> {
    this.complete();
    await this.#saving;
    this.throwIfFailed();
    return this.#summaries;
  }

  /** Drops the current part unsaved and waits for the saves under way; the owner deletes the files. */
  async abort(): Promise<void> {
    await this.#current.close();
    await this.#saving;
  }

  private start(part: number): DatabaseFile {
    const { folder, label, migrations } = this.options;
    const database = DatabaseFile.startNew(join(folder, this.options.fileName(part)), {
      label: `${label} part ${part}`,
      migrations,
      capacityBytes: Math.ceil(this.options.partBytes * PART_ROOM_FACTOR),
    });
    // A part reaches the disk only whole, by its atomic save: a journal file on sql.js's in-memory file system
    // protects nothing, and every page it copies is a call out of WebAssembly. Rollback (an aborted writer) needs
    // only the in-memory journal.
    database.db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE');
    this.options.open(database);
    return database;
  }

  private complete(): void {
    const database = this.#current;
    this.#summaries.push(this.options.close(database));
    this.#pendingSaves++;
    // The part is saved as it is now; close() waits for the write, then frees the memory.
    const saved = database.saveAndClose();
    saved.catch(() => undefined); // handled below, in order; not an unhandled rejection meanwhile
    this.#saving = this.#saving.then(
      () => saved,
      () => saved,
    ).then(
      () => void this.#pendingSaves--,
      (error: unknown) => {
        this.#pendingSaves--;
        this.#failure ??= error instanceof Error ? error : new Error(String(error));
      },
    );
  }

  private throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }
}
