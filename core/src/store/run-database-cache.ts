/**
 * The run databases kept open, shared by everything in the process that
 * reads or writes them: loading one means reading its whole file into
 * memory (a fifth of the size of the recording), so the run an ingest has
 * just written is the one `process` re-runs the checks over, and the one
 * the REST service pages through, without being read again.
 *
 * A run is leased (`lease` ... `release`): the least recently used runs
 * beyond the limit are closed, but never one still leased. A writer leases
 * it `exclusive`: writers of one run take turns (their transactions share
 * one connection and must not interleave); readers need not wait. Changes
 * reach the disk only through the writer's own save(); closing does not save.
 */
import type { DatabaseFile } from './database-file.js';
import { openRunDatabase, type RunDatabaseOptions } from './run-database.js';

/** Run databases kept open at most, unless more are leased at once. */
export const DEFAULT_OPEN_RUNS = 2;

export interface RunLease {
  readonly database: DatabaseFile;
  /** Gives the run back; it stays open until evicted. Call once. */
  release(): void;
}

export interface LeaseOptions extends RunDatabaseOptions {
  /** Wait for the run's other exclusive leases to be released first (writers). */
  exclusive?: boolean;
}

interface Entry {
  opening: Promise<DatabaseFile>;
  leases: number;
  /** Settles when the last exclusive lease asked for is released. */
  writers: Promise<void>;
}

export class RunDatabaseCache {
  /** In order of use, least recent first (a Map keeps insertion order: re-inserting moves to the end). */
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly dataDir: string,
    private readonly maxOpen = DEFAULT_OPEN_RUNS,
  ) {}

  /** Leases a run's database, opening it (or with `create`, making it) if it is not open. */
  async lease(runId: string, options: LeaseOptions = {}): Promise<RunLease> {
    let entry = this.entries.get(runId);
    if (entry) {
      this.entries.delete(runId);
    } else {
      entry = { opening: openRunDatabase(this.dataDir, runId, options), leases: 0, writers: Promise.resolve() };
    }
    this.entries.set(runId, entry);
    entry.leases++;
    const held = entry;
    let endTurn = (): void => undefined;
    const turn = held.writers;
    if (options.exclusive) held.writers = new Promise<void>((resolve) => (endTurn = resolve));
    let database: DatabaseFile;
    try {
      database = await held.opening;
      if (options.exclusive) await turn;
    } catch (error) {
      held.leases--;
      endTurn();
      if (this.entries.get(runId) === held && held.leases === 0) this.entries.delete(runId);
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

  /** Closes a run's database if it is open (before its file is deleted); waits for its pending saves. */
  async evict(runId: string): Promise<void> {
    const entry = this.entries.get(runId);
    if (!entry) return;
    this.entries.delete(runId);
    await closeOpened(entry);
  }

  /** Closes every open run. */
  async closeAll(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map(closeOpened));
  }

  /** How many runs are open now. */
  get size(): number {
    return this.entries.size;
  }

  private async evictBeyondLimit(): Promise<void> {
    for (const [runId, entry] of this.entries) {
      if (this.entries.size <= this.maxOpen) return;
      if (entry.leases > 0) continue;
      this.entries.delete(runId);
      await closeOpened(entry);
    }
  }
}

async function closeOpened(entry: Entry): Promise<void> {
  const database = await entry.opening.catch(() => undefined);
  await database?.close();
}
