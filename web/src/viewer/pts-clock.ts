/**
 * 90 kHz presentation time on the viewer's own unwrapped time line. PTS are
 * 33-bit counters (ISO 13818-1 2.4.3.7) that wrap every 26.5 hours; the page
 * keeps every time stamp as a plain number that goes on past 2^33, placed
 * next to a reference it is close to, and wraps it back only to show it.
 */
import { PTS_MODULUS, ptsDelta90kHz } from '@klvscope/core/browser';

/** `pts` (33 bits) moved by whole wraps to lie within half a wrap of `reference` (unwrapped). */
export function unwrapPts(pts90kHz: number, reference90kHz: number): number {
  return reference90kHz + ptsDelta90kHz(reference90kHz, pts90kHz);
}

/** An unwrapped time stamp back to its 33-bit PTS. */
export function wrapPts(unwrapped90kHz: number): number {
  const pts = unwrapped90kHz % PTS_MODULUS;
  return pts < 0 ? pts + PTS_MODULUS : pts;
}

/**
 * Media time of the video element to PTS. mpegts.js keeps time stamps in
 * whole milliseconds (floor(PTS / 90)) and rebases them on the first DTS it
 * remuxes, so the first frame's media time is (its PTS - first DTS), in ms:
 * 0 without B-frames. `firstFrameMediaTimeS` is that media time (where the
 * video buffer starts), `startPts90kHz` the PTS of the first access unit
 * (hello). A frame's PTS is then known to the millisecond: `ptsAt` gives the
 * middle of that millisecond, within 45 ticks of the true PTS.
 */
export class MediaTimeMapping {
  private readonly startMs: number;

  constructor(
    startPts90kHz: number,
    private readonly firstFrameMediaTimeS: number,
  ) {
    this.startMs = Math.floor(startPts90kHz / 90);
  }

  /** The unwrapped PTS of the frame shown at `mediaTimeS` (±45 ticks). */
  ptsAt(mediaTimeS: number): number {
    const frameMs = this.startMs + Math.round((mediaTimeS - this.firstFrameMediaTimeS) * 1000);
    return frameMs * 90 + PTS_HALF_MS;
  }

  /** The media time at which the frame of unwrapped PTS `pts90kHz` is shown: the inverse of ptsAt (to the millisecond). */
  mediaTimeAt(pts90kHz: number): number {
    return this.firstFrameMediaTimeS + (Math.floor(pts90kHz / 90) - this.startMs) / 1000;
  }
}

/** Half a millisecond in 90 kHz ticks: how far `ptsAt` may be from a frame's true PTS. */
export const PTS_HALF_MS = 45;
