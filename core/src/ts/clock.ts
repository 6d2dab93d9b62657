/**
 * MPEG-2 system clock arithmetic (ISO 13818-1 2.4.2.2). PTS/DTS are 33-bit
 * counts of a 90 kHz clock; the PCR is a 33-bit base at 90 kHz times 300 plus
 * a 9-bit extension at 27 MHz. Both fit exactly in a double.
 */

export const PTS_MODULUS = 2 ** 33;
export const PCR_MODULUS = PTS_MODULUS * 300;
export const PCR_HZ = 27_000_000;
export const PTS_HZ = 90_000;

/** Signed difference `later - earlier` of two PTS values, taking the 33-bit wrap into account. */
export function ptsDelta90kHz(earlier: number, later: number): number {
  return wrappedDelta(later - earlier, PTS_MODULUS);
}

/** Signed difference `later - earlier` of two PCR values, taking the wrap at 2^33 * 300 into account. */
export function pcrDelta27MHz(earlier: number, later: number): number {
  return wrappedDelta(later - earlier, PCR_MODULUS);
}

/** A difference of two clock values brought into (-modulus / 2, modulus / 2]. */
function wrappedDelta(difference: number, modulus: number): number {
  let delta = difference;
  // Two valid values differ by less than their modulus: take the remainder only of what is not one
  // (a remainder of doubles is a call into C that costs more than all the rest, ~15 ns a call).
  if (delta >= modulus || delta <= -modulus) delta %= modulus;
  if (delta > modulus / 2) delta -= modulus;
  else if (delta < -modulus / 2) delta += modulus;
  return delta;
}

/** PTS (90 kHz) minus PCR (27 MHz), in 90 kHz ticks, wrap-aware: the decoder delay of a PES. */
export function ptsMinusPcr90kHz(pts90kHz: number, pcr27MHz: number): number {
  const base = Math.floor(pcr27MHz / 300);
  // The extension, pcr27MHz % 300 (exact: base * 300 is within 300 of pcr27MHz), without a remainder call.
  return ptsDelta90kHz(base, pts90kHz) - (pcr27MHz - base * 300) / 300;
}

/** ISO 13818-1 2.4.3.5: PCR from the 6 bytes of program_clock_reference at `pos`. */
export function readPcr27MHz(bytes: Uint8Array, pos: number): number {
  const base =
    bytes[pos] * 0x2000000 + ((bytes[pos + 1] << 17) | (bytes[pos + 2] << 9) | (bytes[pos + 3] << 1) | (bytes[pos + 4] >>> 7));
  const extension = ((bytes[pos + 4] & 0x01) << 8) | bytes[pos + 5];
  return base * 300 + extension;
}

/** ISO 13818-1 2.4.3.7: a 33-bit PTS or DTS from its 5 bytes at `pos` (marker bits not checked here). */
export function readTimestamp90kHz(bytes: Uint8Array, pos: number): number {
  const high = (bytes[pos] >>> 1) & 0x07;
  const low = (bytes[pos + 1] << 22) | ((bytes[pos + 2] >>> 1) << 15) | (bytes[pos + 3] << 7) | (bytes[pos + 4] >>> 1);
  return high * 0x40000000 + low;
}

/** Whether the three marker bits of a 5-byte PTS/DTS field are set (ISO 13818-1 2.4.3.7). */
export function timestampMarkersValid(bytes: Uint8Array, pos: number): boolean {
  return (bytes[pos] & 1) === 1 && (bytes[pos + 2] & 1) === 1 && (bytes[pos + 4] & 1) === 1;
}
