/**
 * Time between two positions of a stream, for the interval checks.
 *
 * An observation's `t` is the engine's stream time: seconds since the first
 * PCR of the time base, interpolated by byte position between PCRs
 * (ISO/IEC 13818-1 2.4.2.2: the bytes between two PCRs arrive at a constant
 * rate). Before the first PCR `t` is null, yet the first PAT and PMT of a
 * stream usually come before it. Their time is recovered here by the same
 * rule run backwards: the byte rate from the first timed position to the
 * later one, extended back to the untimed position.
 */
import type { Position } from '@klvscope/core';

export class StreamTime {
  /** The first position with a known time (normally the first PCR of the time base, t = 0). */
  private anchor: Position | null = null;
  private lastPosition: Position | null = null;

  /** Notes a position seen by the check; call it for every observation the check receives. */
  note(position: Position): void {
    if (this.anchor === null && position.t !== null) this.anchor = position;
    this.lastPosition = position;
  }

  /** The last position noted: where the stream ends when nothing better is known. */
  get last(): Position | null {
    return this.lastPosition;
  }

  /**
   * Milliseconds from `earlier` to `later` in stream time; null when it
   * cannot be known (no time yet, or an untimed position with no byte rate
   * to place it).
   */
  msBetween(earlier: Position, later: Position): number | null {
    if (later.t === null) return null;
    if (earlier.t !== null) return (later.t - earlier.t) * 1000;
    const anchor = this.anchor;
    if (anchor === null || anchor.t === null || later.offset <= anchor.offset || earlier.offset > anchor.offset) return null;
    const secondsPerByte = (later.t - anchor.t) / (later.offset - anchor.offset);
    const earlierT = anchor.t - (anchor.offset - earlier.offset) * secondsPerByte;
    return (later.t - earlierT) * 1000;
  }
}

/**
 * A duration in ms rounded to the nanosecond: stream times are sums of
 * doubles, and rounding keeps the reported values exact and comparable.
 */
export function roundMs(ms: number): number {
  return Math.round(ms * 1e6) / 1e6;
}

/** `ms` with its unit, for messages: 239.136 -> '239.136 ms'. */
export function formatMs(ms: number): string {
  return `${Number(ms.toFixed(3))} ms`;
}

const PID_TEXT: string[] = [];

/** A PID as analyzers print it, 0x0100 (made once per PID: messages name PIDs often). */
export function hexPid(pid: number): string {
  return (PID_TEXT[pid & 0x1fff] ??= `0x${pid.toString(16).padStart(4, '0')}`);
}
