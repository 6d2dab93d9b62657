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
import { PID_COUNT, type Position } from '@klvscope/core';
import type { StreamTime } from './mpegts-stream-time.js';

interface Watch {
  /** Where it became expected. */
  since: Position;
  /** Its last sighting, as numbers (a reference kept per sighting would cost a write barrier each time); offset -1 before the first. */
  lastSeenOffset: number;
  /** NaN when the last sighting had no known time. */
  lastSeenT: number;
}

/** What the end of the data leaves: never seen, or a trailing gap longer than the limit. */
export interface EndFinding {
  key: number;
  kind: 'never-seen' | 'trailing-gap';
  /** Where it became expected. */
  since: Position;
  /** The trailing gap, or the time from `since` to the end when never seen; null when unknown. */
  ms: number | null;
}

/** Watches keyed by PID (0x0000 to 0x1FFF). */
export class PresenceWatch {
  /** In the order they began, for the end of the data. */
  private readonly watches = new Map<number, Watch>();
  /** The same watches by PID: looked up for every observation, faster than the Map. */
  private readonly byPid: (Watch | undefined)[] = new Array<Watch | undefined>(PID_COUNT).fill(undefined);

  constructor(
    private readonly time: StreamTime,
    private readonly maxMs: number,
  ) {}

  /** Starts watching `pid` from `since`, unless it is watched already. */
  expect(pid: number, since: Position): void {
    if (this.watches.has(pid)) return;
    const watch: Watch = { since, lastSeenOffset: -1, lastSeenT: NaN };
    this.watches.set(pid, watch);
    this.byPid[pid & 0x1fff] = watch;
  }

  /** Stops watching `pid` (a new PAT or PMT no longer names it). */
  forget(pid: number): void {
    this.watches.delete(pid);
    this.byPid[pid & 0x1fff] = undefined;
  }

  /** A sighting of `pid` at `at`: the gap in ms it ends when longer than the limit, else null. Unwatched PIDs are ignored. */
  seen(pid: number, at: Position): number | null {
    const watch = this.byPid[pid & 0x1fff];
    if (watch === undefined) return null;
    const gapMs =
      watch.lastSeenOffset < 0 ? this.time.msBetween(watch.since, at) : this.time.msSince(watch.lastSeenOffset, watch.lastSeenT, at);
    watch.lastSeenOffset = at.offset;
    watch.lastSeenT = at.t ?? NaN;
    return gapMs !== null && gapMs > this.maxMs ? gapMs : null;
  }

  /**
   * At the end of the data (`end`): every PID never seen (unless `carried`
   * says its packets were there all the same, unreadable: scrambled), and
   * every trailing gap longer than the limit.
   */
  end(end: Position, carried: (pid: number) => boolean): EndFinding[] {
    const findings: EndFinding[] = [];
    for (const [key, watch] of this.watches) {
      if (watch.lastSeenOffset < 0) {
        if (!carried(key)) findings.push({ key, kind: 'never-seen', since: watch.since, ms: this.time.msBetween(watch.since, end) });
        continue;
      }
      const gapMs = this.time.msSince(watch.lastSeenOffset, watch.lastSeenT, end);
      if (gapMs !== null && gapMs > this.maxMs) findings.push({ key, kind: 'trailing-gap', since: watch.since, ms: gapMs });
    }
    return findings;
  }
}
