/**
 * Plain integer items, with no scaling (MISB ST 0601 "uint8", "uint16",
 * "uint64", "int8" items such as true airspeed, LS version or Precision Time
 * Stamp), and the "variable length" integers of ST 0601.11 and later (Time
 * Airborne, Leap Seconds...) whose leading zero bytes may be dropped
 * (ST 0601 section 6.4, "Variable Length Integers").
 */
import { encodeSigned, encodeUnsigned, minimalSignedLength, minimalUnsignedLength, readSigned, readUnsigned, requireNumber } from './big-endian-integer.js';
import type { ValueCodec } from './value-codec.js';

/** A fixed-length integer of `bytes` bytes. */
export function fixedIntegerCodec(bytes: number, signed: boolean): ValueCodec {
  const half = 2 ** (8 * bytes - 1);
  return {
    valueType: `${signed ? 'int' : 'uint'}${8 * bytes}`,
    length: { kind: 'fixed', bytes },
    range: signed ? { min: -half, max: half - 1 } : { min: 0, max: 2 ** (8 * bytes) - 1 },
    resolution: 1,
    decode: signed
      ? (b: Uint8Array, start: number) => readSigned(b, start, bytes)
      : (b: Uint8Array, start: number) => readUnsigned(b, start, bytes),
    encode: (value: unknown) =>
      signed ? encodeSigned(requireNumber(value, 'integer'), bytes) : encodeUnsigned(requireNumber(value, 'integer'), bytes),
  };
}

/** A variable-length integer of 1..`maxBytes` bytes, encoded in as few bytes as it needs. */
export function variableIntegerCodec(maxBytes: number, signed: boolean): ValueCodec {
  const half = 2 ** (8 * maxBytes - 1);
  return {
    valueType: `${signed ? 'int' : 'uint'} (variable)`,
    length: { kind: 'range', min: 1, max: maxBytes },
    range: signed ? { min: -half, max: half - 1 } : { min: 0, max: 2 ** (8 * maxBytes) - 1 },
    resolution: 1,
    decode: signed
      ? (b: Uint8Array, start: number, end: number) => readSigned(b, start, end - start)
      : (b: Uint8Array, start: number, end: number) => readUnsigned(b, start, end - start),
    encode: (value: unknown) => {
      const n = requireNumber(value, 'integer');
      return signed ? encodeSigned(n, minimalSignedLength(n)) : encodeUnsigned(n, minimalUnsignedLength(n));
    },
  };
}
