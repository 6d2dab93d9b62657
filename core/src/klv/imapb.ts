/**
 * MISB ST 1201 "Floating Point to Integer Mapping", starting point B (IMAPB):
 * a value in [a, b] is mapped onto an L-byte unsigned integer.
 *
 * ST 1201 section 6 (forward/reverse, with the constants of 6.1):
 *   bPow = ceil(log2(b - a)), dPow = 8L - 1
 *   sF = 2^(dPow - bPow), sR = 2^(bPow - dPow)
 *   zOffset = sF*a - floor(sF*a) when a < 0 < b, else 0 (so that 0 maps exactly)
 *   forward: y = floor(sF * (x - a) + zOffset)
 *   reverse: x = sR * (y - zOffset) + a
 *
 * ST 1201 section 7 (special values): normal values keep the most significant
 * bit of the first byte clear. A set top bit flags a special value; the top
 * five bits of the first byte name it and the remaining bits carry an
 * identifier:
 *   10xxxxxx reserved          11000 user defined     11100 MISB defined
 *   11001 +infinity            11101 -infinity
 *   11010 +quiet NaN           11110 -quiet NaN
 *   11011 +signalling NaN      11111 -signalling NaN
 * One exception: 0x80 followed by zero bytes is the normal value y = 2^dPow,
 * which only occurs for x = b when b - a is an exact power of two.
 */
import { KlvEncodeError } from './klv-encode-error.js';

export type ImapbSpecialKind =
  | 'positive-infinity'
  | 'negative-infinity'
  | 'positive-quiet-nan'
  | 'negative-quiet-nan'
  | 'positive-signalling-nan'
  | 'negative-signalling-nan'
  | 'user-defined'
  | 'misb-defined'
  | 'reserved';

/** A decoded special value: its kind and the identifier bits that follow the kind bits. */
export interface ImapbSpecial {
  readonly special: ImapbSpecialKind;
  readonly identifier: number;
}

/** A decoded IMAPB value: a number for normal values, an {@link ImapbSpecial} otherwise. */
export type ImapbValue = number | ImapbSpecial;

/** The constants of one (a, b, L) mapping, computed once (ST 1201 6.1). */
export interface ImapbMapping {
  readonly a: number;
  readonly b: number;
  readonly length: number;
  readonly sF: number;
  readonly sR: number;
  readonly zOffset: number;
}

/** Largest IMAPB length ST 1201 allows: a 64-bit integer. */
export const IMAPB_MAX_LENGTH = 8;

/** Builds the constants for mapping [a, b] onto `length` bytes (ST 1201 6.1). */
export function createImapbMapping(a: number, b: number, length: number): ImapbMapping {
  if (!(b > a)) throw new KlvEncodeError(`IMAPB needs a < b, got a=${a} b=${b}`);
  if (!Number.isInteger(length) || length < 1 || length > IMAPB_MAX_LENGTH) {
    throw new KlvEncodeError(`IMAPB length must be 1..8 bytes, got ${length}`);
  }
  const bPow = Math.ceil(Math.log2(b - a));
  const dPow = 8 * length - 1;
  const sF = 2 ** (dPow - bPow);
  const sR = 2 ** (bPow - dPow);
  const zOffset = a < 0 && b > 0 ? sF * a - Math.floor(sF * a) : 0;
  return { a, b, length, sF, sR, zOffset };
}

const SPECIAL_BY_HIGH_BITS: Record<number, ImapbSpecialKind> = {
  0xc0: 'user-defined',
  0xc8: 'positive-infinity',
  0xd0: 'positive-quiet-nan',
  0xd8: 'positive-signalling-nan',
  0xe0: 'misb-defined',
  0xe8: 'negative-infinity',
  0xf0: 'negative-quiet-nan',
  0xf8: 'negative-signalling-nan',
};

const HIGH_BITS_BY_SPECIAL: Record<ImapbSpecialKind, number> = {
  'user-defined': 0xc0,
  'positive-infinity': 0xc8,
  'positive-quiet-nan': 0xd0,
  'positive-signalling-nan': 0xd8,
  'misb-defined': 0xe0,
  'negative-infinity': 0xe8,
  'negative-quiet-nan': 0xf0,
  'negative-signalling-nan': 0xf8,
  reserved: 0x80,
};

/**
 * ST 1201 reverse mapping of `mapping.length` bytes at `offset`. The caller
 * guarantees the bytes exist (the local-set framing already checked it).
 */
export function imapbReverse(mapping: ImapbMapping, bytes: Uint8Array, offset: number): ImapbValue {
  const length = mapping.length;
  const first = bytes[offset];
  if (first < 0x80) return mapping.sR * (readUnsigned(bytes, offset, length) - mapping.zOffset) + mapping.a;
  let restZero = true;
  for (let i = 1; i < length; i++) {
    if (bytes[offset + i] !== 0) {
      restZero = false;
      break;
    }
  }
  // ST 1201 7: 0x80 00.. is y = 2^dPow, the top of a power-of-two range.
  if (first === 0x80 && restZero) return mapping.sR * (2 ** (8 * length - 1) - mapping.zOffset) + mapping.a;
  if ((first & 0xc0) === 0x80) {
    return { special: 'reserved', identifier: (first & 0x3f) * 2 ** (8 * (length - 1)) + readUnsigned(bytes, offset + 1, length - 1) };
  }
  const kind = SPECIAL_BY_HIGH_BITS[first & 0xf8];
  return { special: kind, identifier: (first & 0x07) * 2 ** (8 * (length - 1)) + readUnsigned(bytes, offset + 1, length - 1) };
}

/**
 * ST 1201 forward mapping. NaN encodes as a positive quiet NaN and the
 * infinities as their special values; a finite value outside [a, b] is
 * refused (ST 1201 leaves out-of-range handling to the calling standard).
 */
export function imapbForward(mapping: ImapbMapping, x: ImapbValue): Uint8Array {
  const out = new Uint8Array(mapping.length);
  if (typeof x !== 'number') return imapbSpecialBytes(mapping.length, x.special, x.identifier ?? 0);
  if (Number.isNaN(x)) return imapbSpecialBytes(mapping.length, 'positive-quiet-nan', 0);
  if (x === Infinity) return imapbSpecialBytes(mapping.length, 'positive-infinity', 0);
  if (x === -Infinity) return imapbSpecialBytes(mapping.length, 'negative-infinity', 0);
  if (x < mapping.a || x > mapping.b) {
    throw new KlvEncodeError(`IMAPB value ${x} is outside [${mapping.a}, ${mapping.b}]`);
  }
  writeUnsigned(out, 0, mapping.length, Math.floor(mapping.sF * (x - mapping.a) + mapping.zOffset));
  return out;
}

/** The bytes of a special value with its identifier (ST 1201 7, Table 3). */
export function imapbSpecialBytes(length: number, kind: ImapbSpecialKind, identifier = 0): Uint8Array {
  if (!(kind in HIGH_BITS_BY_SPECIAL)) throw new KlvEncodeError(`unknown IMAPB special value ${String(kind)}`);
  const out = new Uint8Array(length);
  writeUnsigned(out, 0, length, identifier);
  const keepBits = kind === 'reserved' ? 0x3f : 0x07;
  out[0] = HIGH_BITS_BY_SPECIAL[kind] | (out[0] & keepBits);
  return out;
}

/** Resolution of a mapping: the value step of one integer unit (ST 1201 6.1, sR). */
export function imapbResolution(mapping: ImapbMapping): number {
  return mapping.sR;
}

/** Unsigned big-endian integer of `length` (0..8) bytes; exact below 2^53. */
function readUnsigned(bytes: Uint8Array, offset: number, length: number): number {
  let v = 0;
  for (let i = 0; i < length; i++) v = v * 256 + bytes[offset + i];
  return v;
}

/** Writes a non-negative integer-valued double big-endian; exact for any integer double. */
function writeUnsigned(out: Uint8Array, offset: number, length: number, value: number): void {
  let v = value;
  for (let i = offset + length - 1; i >= offset; i--) {
    out[i] = v % 256;
    v = Math.floor(v / 256);
  }
}
