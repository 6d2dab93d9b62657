/**
 * The interval since the previous occurrence of something keyed (a table on
 * a PID, a PES with a PTS on a PID), in stream time, and the point the
 * interval checks emit for it.
 */
import type { CheckContext, PointPosition, Position } from '@klvscope/core';
import { formatMs, roundMs, type StreamTime } from './mpegts-stream-time.js';

export interface Interval<P extends Position> {
  /** The previous occurrence of the key, or null for the first. */
  previous: P | null;
  /** Milliseconds since it (unrounded), or null for the first or when the time is unknown. */
  ms: number | null;
}

export class Intervals<K, P extends Position> {
  private readonly last = new Map<K, P>();

  constructor(private readonly time: StreamTime) {}

  /** Records `position` as the latest occurrence of `key` and returns the interval since the one before. */
  next(key: K, position: P): Interval<P> {
    const previous = this.last.get(key) ?? null;
    this.last.set(key, position);
    return { previous, ms: previous === null ? null : this.time.msBetween(previous, position) };
  }

  /** The latest occurrence of `key`, if any. */
  latest(key: K): P | undefined {
    return this.last.get(key);
  }

  get size(): number {
    return this.last.size;
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
