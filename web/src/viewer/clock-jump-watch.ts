/**
 * Watches the PTS of the video PES in the bytes a viewer receives, to see the
 * source's clock jump: a looped file starts its PTS again, an encoder
 * restarts. mpegts.js carries its time line on across such a jump, so media
 * time no longer maps to PTS (pts-clock.ts); the page then starts a new
 * player. A 33-bit wrap is no jump.
 */
import { readTimestamp90kHz } from '@klvscope/core/browser';
import { unwrapPts } from './pts-clock.js';

const PACKET = 188;
/** Steps between consecutive video PTS beyond these are a jump, not a frame interval (nor a few dropped frames). */
const MAX_BACKWARD_90KHZ = 1 * 90_000;
const MAX_FORWARD_90KHZ = 10 * 90_000;

export class ClockJumpWatch {
  private last90kHz: number;

  constructor(
    private readonly videoPid: number,
    startPts90kHz: number,
  ) {
    this.last90kHz = startPts90kHz;
  }

  /** True when the chunk (whole 188-byte packets) starts a video PES whose PTS jumps. */
  push(chunk: Uint8Array): boolean {
    for (let pos = 0; pos + PACKET <= chunk.length; pos += PACKET) {
      // ISO 13818-1 2.4.3.2: payload_unit_start_indicator and PID.
      if ((chunk[pos + 1] & 0x40) === 0 || (((chunk[pos + 1] & 0x1f) << 8) | chunk[pos + 2]) !== this.videoPid) continue;
      const pts = pesStartPts(chunk, pos);
      if (pts === null) continue;
      const unwrapped = unwrapPts(pts, this.last90kHz);
      const step = unwrapped - this.last90kHz;
      this.last90kHz = unwrapped;
      if (step < -MAX_BACKWARD_90KHZ || step > MAX_FORWARD_90KHZ) return true;
    }
    return false;
  }
}

/** The PTS of the PES starting in the packet at `pos` (ISO 13818-1 2.4.3.7), or null. */
function pesStartPts(bytes: Uint8Array, pos: number): number | null {
  const adaptation = (bytes[pos + 3] >> 4) & 0x3;
  const at = pos + 4 + (adaptation & 0x2 ? 1 + bytes[pos + 4] : 0);
  if (at + 14 > pos + PACKET || bytes[at] !== 0 || bytes[at + 1] !== 0 || bytes[at + 2] !== 1 || (bytes[at + 7] & 0x80) === 0) return null;
  return readTimestamp90kHz(bytes, at + 9);
}
