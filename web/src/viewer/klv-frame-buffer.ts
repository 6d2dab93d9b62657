/**
 * The KLV messages of the last seconds, ordered by PTS, to find the one that
 * belongs to the frame on screen:
 * - synchronous carriage (MISB ST 1402): the packet whose PTS is the frame's;
 * - asynchronous: the latest packet whose PTS is not after the frame's;
 * - asynchronous without PTS: the latest one that arrived before the frame's
 *   bytes did (arrival time less the player's buffer).
 */
import type { StreamKlvMessage } from '@klvscope/core/browser';
import { PTS_HALF_MS, unwrapPts } from './pts-clock.js';

/** A frame's PTS is known within half a millisecond (pts-clock.ts); the margin covers a millisecond grid moved by a PTS wrap. */
const SAME_FRAME_90KHZ = 2 * PTS_HALF_MS;
/** Messages older than this behind the newest are dropped (the player's buffer is far shorter). */
const KEEP_90KHZ = 10 * 90_000;
const KEEP_UNTIMED_MS = 10_000;

export interface BufferedKlv {
  message: StreamKlvMessage;
  /** Unwrapped PTS, or null when the packet had none. */
  pts90kHz: number | null;
  /** performance.now() when it arrived. */
  arrivedMs: number;
}

export class KlvFrameBuffer {
  private readonly timed: BufferedKlv[] = [];
  private readonly untimed: BufferedKlv[] = [];

  constructor(private reference90kHz: number) {}

  add(message: StreamKlvMessage, arrivedMs: number): BufferedKlv {
    if (message.pts90kHz === null) {
      const entry = { message, pts90kHz: null, arrivedMs };
      this.untimed.push(entry);
      while (this.untimed.length > 1 && arrivedMs - this.untimed[0].arrivedMs > KEEP_UNTIMED_MS) this.untimed.shift();
      return entry;
    }
    const pts90kHz = unwrapPts(message.pts90kHz, this.reference90kHz);
    this.reference90kHz = pts90kHz;
    const entry = { message, pts90kHz, arrivedMs };
    // Packets come in PTS order but for reordering by the muxer: insert from the end.
    let i = this.timed.length;
    while (i > 0 && (this.timed[i - 1].pts90kHz as number) > pts90kHz) i--;
    this.timed.splice(i, 0, entry);
    const newest = this.timed[this.timed.length - 1].pts90kHz as number;
    while (this.timed.length > 1 && newest - (this.timed[0].pts90kHz as number) > KEEP_90KHZ) this.timed.shift();
    return entry;
  }

  /**
   * The packet for the frame of unwrapped PTS `framePts90kHz`, whose bytes
   * arrived at `frameArrivedMs` (estimated); null if none. `exact` says a
   * synchronous packet of that very frame was found (a frame without one
   * shows the latest packet before it).
   */
  forFrame(framePts90kHz: number, frameArrivedMs: number): { entry: BufferedKlv; exact: boolean } | null {
    let timed: BufferedKlv | null = null;
    for (let i = this.timed.length - 1; i >= 0; i--) {
      const entry = this.timed[i];
      const delta = (entry.pts90kHz as number) - framePts90kHz;
      if (delta > SAME_FRAME_90KHZ) continue;
      if (entry.message.carriage === 'sync' && Math.abs(delta) <= SAME_FRAME_90KHZ) return { entry, exact: true };
      timed = entry;
      break;
    }
    let untimed: BufferedKlv | null = null;
    for (let i = this.untimed.length - 1; i >= 0 && untimed === null; i--) {
      if (this.untimed[i].arrivedMs <= frameArrivedMs) untimed = this.untimed[i];
    }
    const entry = untimed !== null && (timed === null || untimed.arrivedMs > timed.arrivedMs) ? untimed : timed;
    return entry === null ? null : { entry, exact: false };
  }
}
