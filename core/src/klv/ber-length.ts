/**
 * BER length fields as SMPTE ST 336 (section 6.3 "Length") and ITU-T X.690
 * (8.1.3) define them: short form (one byte, 0..127) or long form (0x80 | n
 * followed by n big-endian length bytes). MISB ST 0601 and ST 0107 require
 * BER lengths; the indefinite form 0x80 is not allowed in KLV.
 */
import { klvError, type KlvDecodeError } from './klv-error.js';

export interface BerLength {
  readonly ok: true;
  /** The decoded length in bytes. */
  readonly length: number;
  /** How many bytes the length field itself occupies. */
  readonly size: number;
  /** True when a long form was used where a shorter form would do (X.690 8.1.3.2 prefers the shortest; SMPTE 336 tolerates it). */
  readonly nonMinimal: boolean;
}

/** A {@link KlvDecodeError} of readBerLength; `truncated` when the field runs past `end`, so more bytes may complete it. */
export interface BerLengthError extends KlvDecodeError {
  readonly truncated?: true;
}

/** Largest long-form byte count we accept: 6 bytes keeps the length an exact integer below 2^53. */
const MAX_LONG_FORM_BYTES = 6;

/** The longest BER length field readBerLength reads: the count byte and the long form. */
export const MAX_BER_LENGTH_FIELD_BYTES = 1 + MAX_LONG_FORM_BYTES;

/**
 * Reads a BER length at `offset`, not reading at or past `end`. Never throws:
 * a truncated field, the indefinite form or an oversized long form is returned
 * as a {@link BerLengthError} at the offending byte.
 */
export function readBerLength(bytes: Uint8Array, offset: number, end: number): BerLength | BerLengthError {
  if (offset >= end) return truncatedField('BER length missing: no bytes left', offset);
  const first = bytes[offset];
  // X.690 8.1.3.4: short form, bit 8 clear.
  if (first < 0x80) return { ok: true, length: first, size: 1, nonMinimal: false };
  const count = first & 0x7f;
  // X.690 8.1.3.6: 0x80 is the indefinite form, which SMPTE 336 KLV never uses.
  if (count === 0) return klvError('BER length uses the indefinite form 0x80, not allowed in KLV', offset);
  if (count > MAX_LONG_FORM_BYTES) {
    return klvError(`BER long-form length of ${count} bytes is larger than supported (${MAX_LONG_FORM_BYTES})`, offset);
  }
  if (offset + 1 + count > end) {
    return truncatedField(`BER length truncated: needs ${count} more bytes, ${end - offset - 1} left`, offset);
  }
  let length = 0;
  for (let i = 1; i <= count; i++) length = length * 256 + bytes[offset + i];
  // Minimal long form: no leading zero byte, and not used for values < 128.
  const nonMinimal = length < 0x80 || bytes[offset + 1] === 0;
  return { ok: true, length, size: 1 + count, nonMinimal };
}

function truncatedField(message: string, offset: number): BerLengthError {
  return { ...klvError(message, offset), truncated: true };
}

/** Encodes `length` in the shortest BER form (X.690 8.1.3.2 a). */
export function encodeBerLength(length: number): Uint8Array {
  if (!Number.isSafeInteger(length) || length < 0) throw new RangeError(`BER length must be a non-negative integer, got ${length}`);
  if (length < 0x80) return Uint8Array.of(length);
  let count = 0;
  for (let v = length; v > 0; v = Math.floor(v / 256)) count++;
  const out = new Uint8Array(1 + count);
  out[0] = 0x80 | count;
  let v = length;
  for (let i = count; i >= 1; i--) {
    out[i] = v % 256;
    v = Math.floor(v / 256);
  }
  return out;
}
