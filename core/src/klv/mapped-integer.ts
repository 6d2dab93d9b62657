/**
 * Linearly mapped integers, the classic MISB ST 0601 encoding of real values
 * (ST 0601.17 section 8, "Conversions and Mappings", and each item's
 * "Formula" row):
 *
 *   unsigned, n bytes, [min, max]:  value = int * (max - min) / (2^(8n) - 1) + min
 *   signed,   n bytes, [min, max]:  value = int * (max - min) / (2^(8n) - 2)
 *
 * Signed maps are symmetric (min = -max) and keep -2^(8n-1) (0x80, 0x8000,
 * 0x80000000) apart as the item's "out of range" / error indicator, which we
 * decode as `{ special: 'out-of-range' }`. Encoding rounds to the nearest
 * integer, which is what the ST 0601 worked examples do.
 */
import { readSigned, readUnsigned, writeInteger } from './big-endian-integer.js';
import { KlvEncodeError } from './klv-encode-error.js';
import type { ValueCodec } from './value-codec.js';

/** The decoded form of a signed map's reserved error indicator. */
export interface OutOfRangeIndicator {
  readonly special: 'out-of-range';
}

export const OUT_OF_RANGE: OutOfRangeIndicator = Object.freeze({ special: 'out-of-range' });

function isOutOfRange(value: unknown): value is OutOfRangeIndicator {
  return typeof value === 'object' && value !== null && (value as { special?: unknown }).special === 'out-of-range';
}

/** Unsigned map of `bytes` bytes onto [min, max]. */
export function unsignedMapCodec(bytes: number, min: number, max: number): ValueCodec {
  const steps = 2 ** (8 * bytes) - 1;
  const scale = (max - min) / steps;
  return {
    valueType: `uint${8 * bytes}`,
    length: { kind: 'fixed', bytes },
    range: { min, max },
    resolution: scale,
    decode: (b: Uint8Array, start: number) => readUnsigned(b, start, bytes) * scale + min,
    encode(value: unknown): Uint8Array {
      if (typeof value !== 'number' || !(value >= min && value <= max)) {
        throw new KlvEncodeError(`value ${JSON.stringify(value)} is outside [${min}, ${max}]`);
      }
      const out = new Uint8Array(bytes);
      writeInteger(out, 0, bytes, Math.min(steps, Math.round((value - min) / scale)));
      return out;
    },
  };
}

/** Signed symmetric map of `bytes` bytes onto [-max, max], with the out-of-range indicator. */
export function signedMapCodec(bytes: number, max: number): ValueCodec {
  const half = 2 ** (8 * bytes - 1);
  const scale = (2 * max) / (2 ** (8 * bytes) - 2);
  return {
    valueType: `int${8 * bytes}`,
    length: { kind: 'fixed', bytes },
    range: { min: -max, max },
    resolution: scale,
    decode(b: Uint8Array, start: number): unknown {
      const raw = readSigned(b, start, bytes);
      return raw === -half ? OUT_OF_RANGE : raw * scale;
    },
    encode(value: unknown): Uint8Array {
      const out = new Uint8Array(bytes);
      if (isOutOfRange(value)) {
        out[0] = 0x80;
        return out;
      }
      if (typeof value !== 'number' || !(value >= -max && value <= max)) {
        throw new KlvEncodeError(`value ${JSON.stringify(value)} is outside [${-max}, ${max}]`);
      }
      const raw = Math.max(-(half - 1), Math.min(half - 1, Math.round(value / scale)));
      writeInteger(out, 0, bytes, raw);
      return out;
    },
  };
}
