/**
 * Packet size detection (ISO 13818-1 2.4.3.2: sync_byte 0x47 every packet).
 * 188 is plain TS; 192 is M2TS (a 4-byte arrival timestamp before each
 * packet); 204 is TS with 16 Reed-Solomon bytes after each packet.
 */
import { TS_SYNC_BYTE } from './ts-packet.js';

export type PacketSize = 188 | 192 | 204;

export interface PacketLayout {
  /** Distance from one sync byte to the next. */
  readonly size: PacketSize;
  /** Position of the first sync byte of a run of packets. */
  readonly firstSync: number;
}

const SIZES: readonly PacketSize[] = [188, 192, 204];

/** Syncs in a row that identify a packet size with confidence. */
export const SYNCS_TO_LOCK = 5;

/** Number of sync bytes in a row at `pos`, `pos + size`, ... (at most `limit`). */
export function syncRun(bytes: Uint8Array, pos: number, end: number, size: number, limit: number): number {
  let run = 0;
  for (let p = pos; p < end && run < limit; p += size) {
    if (bytes[p] !== TS_SYNC_BYTE) break;
    run++;
  }
  return run;
}

/**
 * How many syncs in a row make a lock at `pos`: `SYNCS_TO_LOCK`, or at the end
 * of the data as many as fit, but at least two: a lone 0x47 near the end of
 * garbage proves nothing. The one exception is data that is a single packet
 * from its first byte. 0 means no lock is possible here.
 */
export function syncsNeeded(pos: number, start: number, end: number, size: number, final: boolean): number {
  if (!final) return SYNCS_TO_LOCK;
  if (end - pos < 188) return 0;
  const available = Math.floor((end - 1 - pos) / size) + 1;
  if (available >= 2) return Math.min(SYNCS_TO_LOCK, available);
  return pos === start && end - start < 2 * size ? 1 : 0;
}

/**
 * Finds the earliest position with `SYNCS_TO_LOCK` sync bytes in a row at one
 * of the packet sizes (fewer when `final` and the data is short). Returns
 * null when the data holds no such run yet.
 */
export function detectPacketLayout(bytes: Uint8Array, start: number, end: number, final: boolean, known?: PacketSize): PacketLayout | null {
  const sizes = known ? [known] : SIZES;
  for (let pos = start; pos < end; pos++) {
    if (bytes[pos] !== TS_SYNC_BYTE) continue;
    let best: PacketLayout | null = null;
    let bestRun = 0;
    for (const size of sizes) {
      const need = syncsNeeded(pos, start, end, size, final);
      const run = syncRun(bytes, pos, end, size, SYNCS_TO_LOCK);
      if (need > 0 && run >= need && run > bestRun) {
        best = { size, firstSync: pos };
        bestRun = run;
      }
    }
    if (best) return best;
  }
  return null;
}
