/**
 * Presence watches for ETSI TR 101 290's "missing" indicators (1.3.a PAT,
 * 1.5.a PMT, 1.6 PID): something must show up at least every `maxMs` from
 * the moment it is expected (the start of the data for the PAT, the PAT
 * naming a PMT PID, the PMT naming an elementary stream), up to the end of
 * the data. A gap is reported where it ends (the first sighting after it),
 * so it sits on the packet that shows it; a gap running to the end of the
 * data is reported at the end; something expected and never seen counts
 * once.
 */
import type { Position } from '@klvscope/core';
import type { StreamTime } from './mpegts-stream-time.js';

interface Watch {
  /** Where it became expected. */
  since: Position;
  /** Its last sighting, or null. */
  lastSeen: Position | null;
}

/** What the end of the data leaves: never seen, or a trailing gap longer than the limit. */
export interface EndFinding<K> {
  key: K;
  kind: 'never-seen' | 'trailing-gap';
  /** Where it became expected. */
  since: Position;
  /** The trailing gap, or the time from `since` to the end when never seen; null when unknown. */
  ms: number | null;
}

export class PresenceWatch<K> {
  private readonly watches = new Map<K, Watch>();

  constructor(
    private readonly time: StreamTime,
    private readonly maxMs: number,
  ) {}

  /** Starts watching `key` from `since`, unless it is watched already. */
  expect(key: K, since: Position): void {
    if (!this.watches.has(key)) this.watches.set(key, { since, lastSeen: null });
  }

  /** Stops watching `key` (a new PAT or PMT no longer names it). */
  forget(key: K): void {
    this.watches.delete(key);
  }

  isWatched(key: K): boolean {
    return this.watches.has(key);
  }

  /** A sighting of `key` at `at`: the gap in ms it ends when longer than the limit, else null. Unwatched keys are ignored. */
  seen(key: K, at: Position): number | null {
    const watch = this.watches.get(key);
    if (watch === undefined) return null;
    const gapMs = this.time.msBetween(watch.lastSeen ?? watch.since, at);
    watch.lastSeen = at;
    return gapMs !== null && gapMs > this.maxMs ? gapMs : null;
  }

  /**
   * At the end of the data (`end`): every key never seen (unless `carried`
   * says its packets were there all the same, unreadable: scrambled), and
   * every trailing gap longer than the limit.
   */
  end(end: Position, carried: (key: K) => boolean): EndFinding<K>[] {
    const findings: EndFinding<K>[] = [];
    for (const [key, watch] of this.watches) {
      if (watch.lastSeen === null) {
        if (!carried(key)) findings.push({ key, kind: 'never-seen', since: watch.since, ms: this.time.msBetween(watch.since, end) });
        continue;
      }
      const gapMs = this.time.msBetween(watch.lastSeen, end);
      if (gapMs !== null && gapMs > this.maxMs) findings.push({ key, kind: 'trailing-gap', since: watch.since, ms: gapMs });
    }
    return findings;
  }
}
