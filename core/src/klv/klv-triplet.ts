/**
 * One KLV triplet (SMPTE ST 336 section 5: a 16-byte universal label key, a
 * BER length, the value) read from a buffer, and resynchronisation for raw
 * KLV byte streams: a capture of a KLV data PID, or a serial feed, is just
 * triplets back to back, so after garbage the next plausible triplet starts
 * at the next universal label prefix 06 0E 2B 34 (SMPTE ST 298 5.1).
 */
import { readBerLength } from './ber-length.js';
import { klvError, type KlvDecodeError } from './klv-error.js';
import { UNIVERSAL_KEY_SIZE } from './universal-set.js';

export interface KlvTriplet {
  readonly ok: true;
  /** Absolute offset of the key's first byte. */
  readonly keyOffset: number;
  /** Absolute offset of the BER length's first byte. */
  readonly lengthOffset: number;
  /** Absolute offset of the value's first byte. */
  readonly valueOffset: number;
  readonly valueLength: number;
  /** Offset one past the value: where the next triplet starts. */
  readonly end: number;
  /** The length field used a longer BER form than needed (SMPTE 336 tolerates it). */
  readonly berNonMinimal: boolean;
}

/**
 * Reads the triplet at `offset` within `bytes[.., end)`. Total: a key that is
 * not a SMPTE universal label, a bad length, or a value running past `end`
 * come back as errors positioned at the offending byte.
 */
export function readKlvTriplet(bytes: Uint8Array, offset: number, end: number): KlvTriplet | KlvDecodeError {
  const limit = Math.min(end, bytes.length);
  if (offset + UNIVERSAL_KEY_SIZE > limit) {
    return klvError(`KLV key truncated: ${Math.max(0, limit - offset)} of 16 bytes`, offset);
  }
  if (!hasUlPrefixAt(bytes, offset)) return klvError('KLV key does not start with the universal label prefix 06 0E 2B 34', offset);
  const lengthOffset = offset + UNIVERSAL_KEY_SIZE;
  const len = readBerLength(bytes, lengthOffset, limit);
  if (!len.ok) return len;
  const valueOffset = lengthOffset + len.size;
  if (valueOffset + len.length > limit) {
    return klvError(`KLV value of ${len.length} bytes runs past the end of the data (${limit - valueOffset} left)`, lengthOffset);
  }
  return {
    ok: true,
    keyOffset: offset,
    lengthOffset,
    valueOffset,
    valueLength: len.length,
    end: valueOffset + len.length,
    berNonMinimal: len.nonMinimal,
  };
}

/** True when the four bytes at `offset` are 06 0E 2B 34, all four before `end`. */
export function hasUlPrefixAt(bytes: Uint8Array, offset: number, end = bytes.length): boolean {
  return (
    offset + 4 <= end &&
    bytes[offset] === 0x06 &&
    bytes[offset + 1] === 0x0e &&
    bytes[offset + 2] === 0x2b &&
    bytes[offset + 3] === 0x34
  );
}

/**
 * The offset of the next universal label prefix at or after `from` (a
 * plausible key start), or -1 when none starts before `end - 3`. To skip a
 * bad triplet, call it with `badOffset + 1`.
 */
export function findNextKeyStart(bytes: Uint8Array, from: number, end: number): number {
  const last = Math.min(end, bytes.length) - 4;
  for (let i = Math.max(0, from); i <= last; i++) {
    if (bytes[i] === 0x06 && bytes[i + 1] === 0x0e && bytes[i + 2] === 0x2b && bytes[i + 3] === 0x34) return i;
  }
  return -1;
}

export interface KlvStreamScan {
  readonly triplets: KlvTriplet[];
  /** One error per stretch of bytes skipped to resynchronise, at the byte where reading failed. */
  readonly errors: KlvDecodeError[];
}

/**
 * Splits a raw KLV byte stream into triplets, resynchronising on the next
 * universal label prefix after anything unreadable. Never throws.
 */
export function scanKlvStream(bytes: Uint8Array, start = 0, end = bytes.length): KlvStreamScan {
  const triplets: KlvTriplet[] = [];
  const errors: KlvDecodeError[] = [];
  let pos = start;
  while (pos < end) {
    const t = readKlvTriplet(bytes, pos, end);
    if (t.ok) {
      triplets.push(t);
      pos = t.end;
      continue;
    }
    errors.push(t);
    const next = findNextKeyStart(bytes, pos + 1, end);
    if (next < 0) break;
    pos = next;
  }
  return { triplets, errors };
}
