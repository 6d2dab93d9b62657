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
import { PID_COUNT, type Position } from '@klvscope/core';

export class StreamTime {
  // Numbers, not the positions themselves: a check notes every observation, and keeping a reference
  // to each (a young object) in this long-lived one would cost a write barrier every time.
  /** The first position with a known time (normally the first PCR of the time base, t = 0); offset -1 until then. */
  private anchorOffset = -1;
  private anchorT = 0;
  /** The last position noted; offset -1 until one is. `lastT` is NaN when its time is unknown. */
  private lastOffset = -1;
  private lastPacketIndex = -1;
  private lastT = NaN;

  /** Notes a position seen by the check; call it for every observation the check receives. */
  note(position: Position): void {
    const t = position.t;
    if (this.anchorOffset < 0 && t !== null) {
      this.anchorOffset = position.offset;
      this.anchorT = t;
    }
    this.lastOffset = position.offset;
    this.lastPacketIndex = position.packetIndex;
    this.lastT = t ?? NaN;
  }

  /** The last position noted: where the stream ends when nothing better is known. */
  get last(): Position | null {
    if (this.lastOffset < 0) return null;
    return { offset: this.lastOffset, packetIndex: this.lastPacketIndex, t: Number.isNaN(this.lastT) ? null : this.lastT };
  }

  /**
   * Milliseconds from `earlier` to `later` in stream time; null when it
   * cannot be known (no time yet, or an untimed position with no byte rate
   * to place it).
   */
  msBetween(earlier: Position, later: Position): number | null {
    return this.msSince(earlier.offset, earlier.t ?? NaN, later);
  }

  /** As msBetween, from an earlier position given by its offset and time (NaN when unknown). */
  msSince(earlierOffset: number, earlierT: number, later: Position): number | null {
    const laterT = later.t;
    if (laterT === null) return null;
    if (!Number.isNaN(earlierT)) return (laterT - earlierT) * 1000;
    const anchorOffset = this.anchorOffset;
    if (anchorOffset < 0 || later.offset <= anchorOffset || earlierOffset > anchorOffset) return null;
    const secondsPerByte = (laterT - this.anchorT) / (later.offset - anchorOffset);
    const earlierTime = this.anchorT - (anchorOffset - earlierOffset) * secondsPerByte;
    return (laterT - earlierTime) * 1000;
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

// Filled up front: an empty array written at a high index (a PMT on PID 0x1000) becomes a dictionary,
// which every lookup then pays for (it was ~15 ms of checks' time per 2 GB).
const PID_TEXT: (string | undefined)[] = new Array<string | undefined>(PID_COUNT).fill(undefined);

/** A PID as analyzers print it, 0x0100 (made once per PID: messages name PIDs often). */
export function hexPid(pid: number): string {
  return (PID_TEXT[pid & 0x1fff] ??= `0x${pid.toString(16).padStart(4, '0')}`);
}
