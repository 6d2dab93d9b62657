/**
 * Bit fields (MISB ST 0601 Generic Flag Data, Positioning Method Source):
 * bit i, counted from the least significant bit, is named `names[i]`.
 * Decoded as `{ bits, <name>: boolean, ... }`; bits the standard leaves
 * unnamed stay visible in `bits`.
 */
import { KlvEncodeError } from './klv-encode-error.js';
import type { ValueCodec } from './value-codec.js';

export type BitFlags = { readonly bits: number } & Readonly<Record<string, boolean | number>>;

export function decodeBitFlags(names: readonly string[], bits: number): BitFlags {
  const out: Record<string, boolean | number> = { bits };
  for (let i = 0; i < names.length; i++) out[names[i]] = (bits & (1 << i)) !== 0;
  return out as BitFlags;
}

/** The bits of a value given as a number, as `{ bits }`, or as named booleans. */
export function encodeBitFlags(names: readonly string[], value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.bits === 'number') return record.bits;
    let bits = 0;
    names.forEach((name, i) => {
      if (record[name] === true) bits |= 1 << i;
    });
    return bits;
  }
  throw new KlvEncodeError(`bit flags need a number or an object, got ${JSON.stringify(value)}`);
}

/** A one-byte bit field. */
export function bitFlagsCodec(names: readonly string[]): ValueCodec {
  const decoded: BitFlags[] = [];
  for (let bits = 0; bits < 256; bits++) decoded.push(Object.freeze(decodeBitFlags(names, bits)));
  return {
    valueType: 'uint8 (bits)',
    length: { kind: 'fixed', bytes: 1 },
    range: null,
    resolution: null,
    decode: (bytes: Uint8Array, start: number) => decoded[bytes[start]],
    encode(value: unknown): Uint8Array {
      const bits = encodeBitFlags(names, value);
      if (bits < 0 || bits > 255) throw new KlvEncodeError(`bit field ${bits} does not fit one byte`);
      return Uint8Array.of(bits);
    },
  };
}
