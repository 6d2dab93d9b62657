/**
 * Stream time (the `t` of every point and row: seconds since the first PCR)
 * and presentation time (PTS) on one line. A decoder presents a frame when
 * its system time clock reaches the frame's PTS (ISO 13818-1 2.4.2, the
 * T-STD), and the clock is the PCR: so the frame on screen at stream time t
 * is the latest with PTS <= first PCR base + t * 90 kHz. PTS are kept
 * unwrapped next to the first video PTS (pts-clock.ts), so a 33-bit wrap
 * changes nothing. A PCR discontinuity (a new time base) is not followed:
 * after one, times map as if the clock had run on.
 */
import { unwrapPts } from '../../viewer/pts-clock.js';

export class StreamClock {
  /** The first PCR's 90 kHz base, unwrapped next to the first video PTS. */
  private readonly firstPcr90kHz: number;

  constructor(
    firstPcr27MHz: number,
    /** The first video PTS in the file: the reference for unwrapping. */
    readonly startPts90kHz: number,
  ) {
    this.firstPcr90kHz = unwrapPts(Math.floor(firstPcr27MHz / 300), startPts90kHz);
  }

  /** The unwrapped PTS presented at stream time `t` seconds. */
  ptsAt(streamTimeS: number): number {
    return this.firstPcr90kHz + streamTimeS * 90_000;
  }

  /** The stream time at which the frame of unwrapped PTS `pts90kHz` is presented, seconds. */
  streamTimeAt(pts90kHz: number): number {
    return (pts90kHz - this.firstPcr90kHz) / 90_000;
  }

  /** A 33-bit PTS from the stream, unwrapped onto this clock's line. */
  unwrap(pts90kHz: number): number {
    return unwrapPts(pts90kHz, this.startPts90kHz);
  }
}
