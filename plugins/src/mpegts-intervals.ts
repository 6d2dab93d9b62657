/**
 * The interval since the previous occurrence of something on a PID (a table
 * section, a PES with a PTS), in stream time, and the point the interval
 * checks emit for it.
 */
import { PID_COUNT, type CheckContext, type PointPosition, type PointSeries, type Position } from '@klvscope/core';
import { formatMs, roundMs, type StreamTime } from './mpegts-stream-time.js';

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

/**
 * One point for an interval ending at `at`: its length in ms (rounded to
 * the nanosecond), a violation above `maxIntervalMs`. The series (one per
 * PID: mpegts-pid-series.ts) names what is timed ('PAT', 'PTS on PID
 * 0x0100'): it is the whole message of a point that breaks nothing, and
 * gives the citation and type.
 */
export function intervalPoint(ctx: CheckContext, at: PointPosition, intervalMs: number, maxIntervalMs: number, series: PointSeries): void {
  const ms = roundMs(intervalMs);
  if (ms <= maxIntervalMs) {
    ctx.measure(at, ms, series);
    return;
  }
  ctx.point(at, {
    message: `${series.message} ${formatMs(ms)} after the previous one, more than ${formatMs(maxIntervalMs)}`,
    value: ms,
    unit: 'ms',
    violation: true,
    severity: 'error',
    citation: series.citation,
    type: series.type,
  });
}
