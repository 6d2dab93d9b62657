/**
 * The KLV messages of the last seconds, ordered by PTS, to find the one that
 * belongs to the frame on screen:
 * - synchronous carriage (MISB ST 1402): the packet whose PTS is the frame's;
 * - asynchronous: the latest packet whose PTS is not after the frame's;
 * - asynchronous without PTS: the latest one that arrived before the frame's
 *   bytes did (arrival time less the player's buffer).
 *
 * Packets go on arriving while the video is paused (the stream is live), and
 * old ones are dropped: not those the frame last looked up may need, so that a
 * paused frame keeps its packet however long the pause (and a frame stepped
 * back to within KEEP of it finds its own).
 */
import type { StreamKlvMessage } from '@klvscope/core/browser';
import { PTS_HALF_MS, unwrapPts } from './pts-clock.js';

/** A frame's PTS is known within half a millisecond (pts-clock.ts); the margin covers a millisecond grid moved by a PTS wrap. */
const SAME_FRAME_90KHZ = 2 * PTS_HALF_MS;
/** Messages older than this behind both the newest and the frame last looked up are dropped (the player's buffer is far shorter). */
const KEEP_90KHZ = 10 * 90_000;
const KEEP_UNTIMED_MS = 10_000;
/** A frame held longer than this behind the newest packet (a pause of minutes) no longer keeps packets for itself: memory stays bounded. */
const HOLD_AT_MOST_90KHZ = 300 * 90_000;
const HOLD_AT_MOST_MS = 300_000;

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
  /** The frame last looked up (unwrapped PTS, arrival), whose packets are kept. */
  private held: { pts90kHz: number; arrivedMs: number } | null = null;

  constructor(private reference90kHz: number) {}

  add(message: StreamKlvMessage, arrivedMs: number): BufferedKlv {
    if (message.pts90kHz === null) {
      const entry = { message, pts90kHz: null, arrivedMs };
      this.untimed.push(entry);
      const keepFromMs = Math.min(arrivedMs, this.heldWithin(arrivedMs, HOLD_AT_MOST_MS, (held) => held.arrivedMs)) - KEEP_UNTIMED_MS;
      while (this.untimed.length > 1 && this.untimed[0].arrivedMs < keepFromMs) this.untimed.shift();
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
    const keepFrom90kHz = Math.min(newest, this.heldWithin(newest, HOLD_AT_MOST_90KHZ, (held) => held.pts90kHz)) - KEEP_90KHZ;
    while (this.timed.length > 1 && (this.timed[0].pts90kHz as number) < keepFrom90kHz) this.timed.shift();
    return entry;
  }

  /** The held frame's time (by `timeOf`) when it is less than `atMost` behind `newest`; else `newest` (nothing held back). */
  private heldWithin(newest: number, atMost: number, timeOf: (held: { pts90kHz: number; arrivedMs: number }) => number): number {
    if (this.held === null) return newest;
    const time = timeOf(this.held);
    return newest - time < atMost ? time : newest;
  }

  /**
   * The packet for the frame of unwrapped PTS `framePts90kHz`, whose bytes
   * arrived at `frameArrivedMs` (estimated); null if none. `exact` says a
   * synchronous packet of that very frame was found (a frame without one
   * shows the latest packet before it).
   */
  forFrame(framePts90kHz: number, frameArrivedMs: number): { entry: BufferedKlv; exact: boolean } | null {
    this.held = { pts90kHz: framePts90kHz, arrivedMs: frameArrivedMs };
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
