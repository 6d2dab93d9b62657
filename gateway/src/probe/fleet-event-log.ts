/**
 * The hub's log of one kind of probe record (findings, statistics, track
 * points), numbered by their catalog rows. It keeps the latest `capacity`
 * in memory; a follower that asks for older ones (one reconnecting after a
 * while, or after the hub restarted) reads them from the catalog
 * (`backfill`) and then goes on from memory, so it misses nothing the
 * catalog holds and gets nothing twice.
 */
import { Waiters } from '../live/waiters.js';

export interface Identified {
  readonly id: number;
}

/** Reads the stored records above `afterId`, oldest first, at most `limit`. */
export type Backfill<T> = (afterId: number, limit: number) => Promise<T[]>;

/** Records handed to a follower at a time. */
const PAGE = 1_000;

export class FleetEventLog<T extends Identified> {
  private events: T[] = [];
  /** Every record up to this id is older than what memory holds: ask the catalog. */
  private floor: number;
  private readonly appended = new Waiters();

  constructor(
    private readonly capacity: number,
    /** The highest id stored when the hub started: the log holds what comes after. */
    startId: number,
    private readonly backfill: Backfill<T>,
  ) {
    this.floor = startId;
  }

  /** The id of the latest record known (stored before the start, or appended since). */
  get lastId(): number {
    return this.events.at(-1)?.id ?? this.floor;
  }

  /** Records read from the catalog, in id order, above every one appended before. */
  append(records: readonly T[]): void {
    if (records.length === 0) return;
    this.events.push(...records);
    // Trimmed in steps, not one record at a time: a shift per record would copy the whole array each time.
    if (this.events.length > this.capacity * 1.25) {
      const dropped = this.events.splice(0, this.events.length - this.capacity);
      this.floor = dropped.at(-1)!.id;
    }
    this.appended.wakeAll();
  }

  /**
   * Every record above `afterId` (from now on when null) as it comes, until
   * the signal aborts. Records at or below the floor come from the catalog.
   */
  async *follow(afterId: number | null, signal: AbortSignal): AsyncGenerator<T, void, undefined> {
    let seen = afterId ?? this.lastId;
    while (!signal.aborted) {
      if (seen < this.floor) {
        const stored = await this.backfill(seen, PAGE);
        for (const event of stored) {
          if (event.id > this.floor) break;
          seen = event.id;
          yield event;
        }
        // Nothing more stored below the floor: memory takes over.
        if (stored.length < PAGE || stored.at(-1)!.id >= this.floor) seen = Math.max(seen, this.floor);
        continue;
      }
      const fresh = this.since(seen, PAGE);
      for (const event of fresh) {
        seen = event.id;
        yield event;
      }
      if (fresh.length === 0) await this.appended.wait(signal);
    }
  }

  /** Wakes every follower (to see its signal at shutdown). */
  wakeAll(): void {
    this.appended.wakeAll();
  }

  private since(afterId: number, limit: number): T[] {
    // The first record above afterId, by binary search: ids grow along the array.
    let low = 0;
    let high = this.events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.events[middle].id <= afterId) low = middle + 1;
      else high = middle;
    }
    return this.events.slice(low, low + limit);
  }
}
