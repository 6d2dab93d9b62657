/**
 * A bounded log of a live session's events (findings, metadata packets,
 * statistics), numbered from 1 in order. Followers read from any number on
 * and then wait for more, so a client that reconnects with the last number
 * it saw resumes without a gap, as long as what it missed is still kept:
 * the log keeps the latest `capacity` events and drops the oldest.
 */
import { Waiters } from './waiters.js';

export interface Sequenced {
  readonly seq: number;
}

export class LiveEventLog<T extends Sequenced> {
  private readonly ring: Array<T | undefined>;
  private lastSeq = 0;
  private closed = false;
  private readonly appended = new Waiters();

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.ring = new Array<T | undefined>(capacity);
  }

  /** The number of the latest event; 0 before the first. */
  get last(): number {
    return this.lastSeq;
  }

  /** The number of the oldest event still kept (last + 1 when empty). */
  get first(): number {
    return Math.max(1, this.lastSeq - this.capacity + 1);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Adds an event made with its number; wakes the followers. */
  append(make: (seq: number) => T): T {
    if (this.closed) throw new Error('the event log is closed');
    const event = make(++this.lastSeq);
    this.ring[(event.seq - 1) % this.capacity] = event;
    this.appended.wakeAll();
    return event;
  }

  /** The latest event, or null before the first. */
  latest(): T | null {
    return this.lastSeq === 0 ? null : (this.ring[(this.lastSeq - 1) % this.capacity] as T);
  }

  /** The events kept with a number above `afterSeq`, oldest first, at most `limit`. */
  since(afterSeq: number, limit = Number.POSITIVE_INFINITY): T[] {
    const events: T[] = [];
    for (let seq = Math.max(afterSeq + 1, this.first); seq <= this.lastSeq && events.length < limit; seq++) {
      events.push(this.ring[(seq - 1) % this.capacity] as T);
    }
    return events;
  }

  /** No more events: followers finish once they have read the rest. */
  close(): void {
    this.closed = true;
    this.appended.wakeAll();
  }

  /**
   * Every event above `afterSeq` as it comes, until the log closes (after
   * the last one) or the signal aborts. A follower too slow for the log's
   * capacity skips what was dropped and goes on from the oldest kept.
   */
  async *follow(afterSeq: number, signal?: AbortSignal): AsyncGenerator<T, void, undefined> {
    let seen = afterSeq;
    for (;;) {
      for (const event of this.since(seen, 1_000)) {
        seen = event.seq;
        yield event;
      }
      if (seen < this.lastSeq) continue;
      if (this.closed || signal?.aborted) return;
      await this.appended.wait(signal);
    }
  }
}
