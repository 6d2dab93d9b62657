/**
 * The interval since the previous occurrence of something on a PID (a table
 * section, a PES with a PTS), in stream time, and the point the interval
 * checks emit for it.
 */
import type { CheckContext, PointPosition, Position } from '@klvscope/core';
import { formatMs, PID_COUNT, roundMs, type StreamTime } from './mpegts-stream-time.js';

/**
 * The interval since the previous occurrence on each PID. The previous
 * occurrence is kept as numbers in arrays indexed by PID rather than as the
 * observation in a Map: this runs for every section and PES, and a Map
 * lookup plus a reference stored in a long-lived object cost more than the
 * interval itself.
 */
export class PidIntervals {
  private readonly lastOffset = new Float64Array(PID_COUNT);
  /** NaN when the previous occurrence had no known time. */
  private readonly lastT = new Float64Array(PID_COUNT);
  private readonly seen = new Uint8Array(PID_COUNT);
  private pids = 0;

  constructor(private readonly time: StreamTime) {}

  /** Whether `pid` has occurred before. */
  has(pid: number): boolean {
    return this.seen[pid & 0x1fff] === 1;
  }

  /**
   * Records `position` as the latest occurrence on `pid` and returns the
   * milliseconds since the one before (unrounded); null for the first, or
   * when the time is unknown.
   */
  next(pid: number, position: Position): number | null {
    const slot = pid & 0x1fff;
    const ms = this.seen[slot] === 1 ? this.time.msSince(this.lastOffset[slot], this.lastT[slot], position) : null;
    if (this.seen[slot] === 0) {
      this.seen[slot] = 1;
      this.pids++;
    }
    this.lastOffset[slot] = position.offset;
    this.lastT[slot] = position.t ?? NaN;
    return ms;
  }

  /** PIDs that occurred at least once. */
  get size(): number {
    return this.pids;
  }
}

export interface IntervalRule {
  maxIntervalMs: number;
  citation: string;
  /** Stable point type, e.g. 'pat-interval'. */
  type: string;
}

/**
 * One point for an interval ending at `at`: its length in ms (rounded to
 * the nanosecond), a violation above the rule's limit. `what` names the
 * series ('PAT', 'PTS on PID 0x0100'); it is the whole message of a point
 * that breaks nothing (cache it per series: see mpegts-labels.ts).
 */
export function intervalPoint(ctx: CheckContext, at: PointPosition, intervalMs: number, rule: IntervalRule, what: string): void {
  const ms = roundMs(intervalMs);
  const violation = ms > rule.maxIntervalMs;
  ctx.point(at, {
    message: violation ? `${what} ${formatMs(ms)} after the previous one, more than ${formatMs(rule.maxIntervalMs)}` : what,
    value: ms,
    unit: 'ms',
    violation,
    severity: violation ? 'error' : 'info',
    citation: rule.citation,
    type: rule.type,
  });
}
