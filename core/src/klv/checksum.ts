/**
 * The MISB ST 0601 checksum, item 1 (ST 0601.17 section 6.3 and the Item 1
 * description): a 16-bit running sum over every byte of the packet from the
 * first byte of the 16-byte key through the checksum item's tag and length
 * bytes, where each byte at an even distance from the key's first byte is
 * shifted left 8 bits before it is added. It runs over the bytes exactly as
 * received, so non-minimal BER lengths and odd tag encodings count as sent.
 */

/** Running 16-bit sum of `bytes[start, end)`, even positions (from `start`) in the high byte. */
export function st0601Checksum(bytes: Uint8Array, start: number, end: number): number {
  let sum = 0;
  const limit = Math.min(end, bytes.length);
  let i = start;
  // Two bytes per round: the high byte then the low byte of a 16-bit word.
  for (; i + 1 < limit; i += 2) sum += (bytes[i] << 8) + bytes[i + 1];
  if (i < limit) sum += bytes[i] << 8;
  return sum & 0xffff;
}

export interface ChecksumVerification {
  /** The two value bytes of item 1, big-endian. */
  readonly stored: number;
  /** The sum computed over the received bytes. */
  readonly computed: number;
  readonly valid: boolean;
}

/**
 * Verifies a checksum item. `packetStart` is the key's first byte and
 * `checksumValueOffset` the first of the item's two value bytes (so the sum
 * covers everything before them, the item's tag and length included).
 */
export function verifySt0601Checksum(bytes: Uint8Array, packetStart: number, checksumValueOffset: number): ChecksumVerification {
  const computed = st0601Checksum(bytes, packetStart, checksumValueOffset);
  const stored = (bytes[checksumValueOffset] << 8) | bytes[checksumValueOffset + 1];
  return { stored, computed, valid: stored === computed };
}
