/**
 * BER-OID encoded integers (X.690 8.19.2, used by MISB ST 0601 section 6.2
 * and ST 0107 for local-set tags): seven value bits per byte, most
 * significant group first, the high bit set on every byte but the last.
 */
import { klvError, type KlvDecodeError } from './klv-error.js';

export interface BerOid {
  readonly ok: true;
  readonly value: number;
  /** How many bytes the encoded value occupies. */
  readonly size: number;
}

/** Seven bytes carry 49 bits, still an exact double; longer tags are not plausible in KLV. */
const MAX_BER_OID_BYTES = 7;

/**
 * Reads a BER-OID value at `offset`, not reading at or past `end`. Never
 * throws: a value whose last byte still has the continuation bit is
 * truncated and reported at its first byte.
 */
export function readBerOid(bytes: Uint8Array, offset: number, end: number): BerOid | KlvDecodeError {
  if (offset >= end) return klvError('BER-OID missing: no bytes left', offset);
  const first = bytes[offset];
  // Fast path: almost every ST 0601 tag fits one byte.
  if (first < 0x80) return { ok: true, value: first, size: 1 };
  let value = 0;
  for (let i = offset; i < end; i++) {
    const b = bytes[i];
    value = value * 128 + (b & 0x7f);
    const size = i - offset + 1;
    if (b < 0x80) return { ok: true, value, size };
    if (size >= MAX_BER_OID_BYTES) return klvError(`BER-OID longer than ${MAX_BER_OID_BYTES} bytes`, offset);
  }
  return klvError('BER-OID truncated: the last byte still has its continuation bit set', offset);
}

/** Encodes `value` as the shortest BER-OID (X.690 8.19.2: no leading 0x80 byte). */
export function encodeBerOid(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`BER-OID value must be a non-negative integer, got ${value}`);
  let count = 1;
  for (let v = Math.floor(value / 128); v > 0; v = Math.floor(v / 128)) count++;
  const out = new Uint8Array(count);
  let v = value;
  for (let i = count - 1; i >= 0; i--) {
    out[i] = (v % 128) | (i === count - 1 ? 0 : 0x80);
    v = Math.floor(v / 128);
  }
  return out;
}
