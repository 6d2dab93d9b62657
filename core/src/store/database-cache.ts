/**
 * Databases kept open by id (the run databases, the live sessions'), shared
 * by everything in the process that reads or writes them: loading one means
 * reading its whole file into memory (a run's is a fifth of the size of the
 * recording), so the run an ingest has just written is the one `process`
 * re-runs the checks over, and the one the REST service pages through,
 * without being read again; and paging through an ended live session reads
 * its file once, not once per page.
 *
 * A database is leased (`lease` ... `release`): the least recently used ones
 * beyond the limit are closed, but never one still leased. A writer leases
 * it `exclusive`: writers of one database take turns (their transactions
 * share one connection and must not interleave); readers need not wait.
 * Changes reach the disk only through the writer's own save(); closing does
 * not save.
 */
import type { DatabaseFile } from './database-file.js';

/** Databases of one kind kept open at most, unless more are leased at once. */
const DEFAULT_OPEN_DATABASES = 2;

/** What the cache keeps open: a database file, a stored run. */
export interface Closable {
  close(): Promise<void>;
}

export interface DatabaseLease<D extends Closable = DatabaseFile> {
  readonly database: D;
  /** Gives the database back; it stays open until evicted. Call once. */
  release(): void;
}

export interface LeaseFlags {
  /** Wait for the database's other exclusive leases to be released first (writers). */
  exclusive?: boolean;
}

/** Opens the database of this id; `options` are what the lease was given (`create`, say). */
type OpenDatabaseById<O, D> = (id: string, options: O | undefined) => Promise<D>;

interface Entry<D> {
  opening: Promise<D>;
  leases: number;
  /** Settles when the last exclusive lease asked for is released. */
  writers: Promise<void>;
}

export class DatabaseCache<O extends object, D extends Closable = DatabaseFile> {
  /** In order of use, least recent first (a Map keeps insertion order: re-inserting moves to the end). */
  private readonly entries = new Map<string, Entry<D>>();

  constructor(
    private readonly open: OpenDatabaseById<O, D>,
    private readonly maxOpen = DEFAULT_OPEN_DATABASES,
  ) {}

  /** Leases the database of this id, opening it (with the options the opener takes) if it is not open. */
  async lease(id: string, options?: O & LeaseFlags): Promise<DatabaseLease<D>> {
    let entry = this.entries.get(id);
    if (entry) {
      this.entries.delete(id);
    } else {
      entry = { opening: this.open(id, options), leases: 0, writers: Promise.resolve() };
    }
    this.entries.set(id, entry);
    entry.leases++;
    const held = entry;
    const exclusive = options?.exclusive === true;
    let endTurn = (): void => undefined;
    const turn = held.writers;
    if (exclusive) held.writers = new Promise<void>((resolve) => (endTurn = resolve));
    let database: D;
    try {
      database = await held.opening;
      if (exclusive) await turn;
    } catch (error) {
      held.leases--;
      endTurn();
      if (this.entries.get(id) === held && held.leases === 0) this.entries.delete(id);
      throw error;
    }
    await this.evictBeyondLimit();
    let released = false;
    return {
      database,
      release: () => {
        if (released) return;
        released = true;
        held.leases--;
        endTurn();
      },
    };
  }

  /** Reads from the database of this id: leased for the read, given back after it, even when it throws. */
  async read<T>(id: string, read: (database: D) => T): Promise<T> {
    const lease = await this.lease(id);
    try {
      return read(lease.database);
    } finally {
      lease.release();
    }
  }

  /** Closes the database of this id if it is open (before its file is deleted); waits for its pending saves. */
  async evict(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    await closeOpened(entry);
  }

  /** Closes every open database. */
  async closeAll(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map(closeOpened));
  }

  /** How many databases are open now. */
  get size(): number {
    return this.entries.size;
  }

  private async evictBeyondLimit(): Promise<void> {
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.maxOpen) return;
      if (entry.leases > 0) continue;
      this.entries.delete(id);
      await closeOpened(entry);
    }
  }
}

async function closeOpened<D extends Closable>(entry: Entry<D>): Promise<void> {
  const database = await entry.opening.catch(() => undefined);
  await database?.close();
}
