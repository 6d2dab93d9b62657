/**
 * Big-endian integers of 1 to 8 bytes, as KLV values are (SMPTE ST 336 and
 * MISB ST 0107: network byte order). Numbers stay doubles: exact up to 2^53,
 * which covers every ST 0601 value (a µs time stamp needs 51 bits).
 */
import { KlvEncodeError } from './klv-encode-error.js';

/** Unsigned integer of `length` bytes at `offset`. */
export function readUnsigned(bytes: Uint8Array, offset: number, length: number): number {
  switch (length) {
    case 1:
      return bytes[offset];
    case 2:
      return (bytes[offset] << 8) | bytes[offset + 1];
    case 4:
      return ((bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]) >>> 0;
    default: {
      let v = 0;
      for (let i = 0; i < length; i++) v = v * 256 + bytes[offset + i];
      return v;
    }
  }
}

/** Two's-complement signed integer of `length` bytes at `offset`. */
export function readSigned(bytes: Uint8Array, offset: number, length: number): number {
  switch (length) {
    case 0:
      return 0;
    case 1:
      return (bytes[offset] << 24) >> 24;
    case 2:
      return (((bytes[offset] << 8) | bytes[offset + 1]) << 16) >> 16;
    case 4:
      return (bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3];
    default: {
      if (bytes[offset] < 0x80) return readUnsigned(bytes, offset, length);
      // Negative: -(~bits) - 1 over the inverted bytes, exact wherever the result is (unsigned - 2^n is not).
      let inverted = 0;
      for (let i = 0; i < length; i++) inverted = inverted * 256 + (~bytes[offset + i] & 0xff);
      return -inverted - 1;
    }
  }
}

/** Writes an integer-valued double as `length` big-endian bytes (two's complement when negative). */
export function writeInteger(out: Uint8Array, offset: number, length: number, value: number): void {
  // Negative values are written as the inverted bytes of -value - 1, which stays exact (value + 2^n may not).
  const negative = value < 0;
  let v = negative ? -value - 1 : value;
  for (let i = offset + length - 1; i >= offset; i--) {
    const byte = v % 256;
    out[i] = negative ? ~byte & 0xff : byte;
    v = Math.floor(v / 256);
  }
}

/** `length`-byte encoding of an unsigned integer, refusing values that do not fit. */
export function encodeUnsigned(value: number, length: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0 || value >= 2 ** (8 * length)) {
    throw new KlvEncodeError(`${String(value)} is not an unsigned integer of ${length} bytes`);
  }
  const out = new Uint8Array(length);
  writeInteger(out, 0, length, value);
  return out;
}

/** `length`-byte two's-complement encoding of a signed integer, refusing values that do not fit. */
export function encodeSigned(value: number, length: number): Uint8Array {
  const half = 2 ** (8 * length - 1);
  if (!Number.isSafeInteger(value) || value < -half || value >= half) {
    throw new KlvEncodeError(`${String(value)} is not a signed integer of ${length} bytes`);
  }
  const out = new Uint8Array(length);
  writeInteger(out, 0, length, value);
  return out;
}

/** Fewest bytes (at least 1) holding an unsigned integer: MISB "variable length" uint items drop leading zero bytes. */
export function minimalUnsignedLength(value: number): number {
  let n = 1;
  while (value >= 2 ** (8 * n)) n++;
  return n;
}

/** Fewest bytes (at least 1) holding a signed integer in two's complement. */
export function minimalSignedLength(value: number): number {
  let n = 1;
  while (value < -(2 ** (8 * n - 1)) || value >= 2 ** (8 * n - 1)) n++;
  return n;
}

/** The value as a number when it is one, for encoders. */
export function requireNumber(value: unknown, what: string): number {
  if (typeof value !== 'number' || Number.isNaN(value)) throw new KlvEncodeError(`${what} needs a number, got ${JSON.stringify(value)}`);
  return value;
}
