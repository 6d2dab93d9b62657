/**
 * One-byte enumerations (MISB ST 0601 items such as Icing Detected, Sensor
 * Field of View Name, Operational Mode, Platform Status, Sensor Control
 * Mode). Decoded as `{ code, name }`; a code the standard does not define
 * keeps its number with the name "unknown (n)" rather than failing.
 */
import { KlvEncodeError } from './klv-encode-error.js';
import type { ValueCodec } from './value-codec.js';

export interface EnumeratedValue {
  readonly code: number;
  readonly name: string;
}

/** The name of `code` in `names`, or "unknown (code)". */
export function enumerationName(names: readonly string[], code: number): string {
  return code < names.length ? names[code] : `unknown (${code})`;
}

/** The code of an enumerated value given as a number, a `{ code }` object or a name. */
export function enumerationCode(names: readonly string[], value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string') {
    const index = names.indexOf(value);
    if (index >= 0) return index;
  }
  if (typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number') {
    return (value as { code: number }).code;
  }
  throw new KlvEncodeError(`not a value of this enumeration: ${JSON.stringify(value)}`);
}

/** A uint8 enumeration whose code i is named `names[i]`. */
export function enumerationCodec(names: readonly string[]): ValueCodec {
  // Decoded objects are shared per code: no allocation on the hot path.
  const decoded: EnumeratedValue[] = [];
  for (let code = 0; code < 256; code++) decoded.push(Object.freeze({ code, name: enumerationName(names, code) }));
  return {
    valueType: 'uint8 (enumeration)',
    length: { kind: 'fixed', bytes: 1 },
    range: { min: 0, max: names.length - 1 },
    resolution: null,
    decode: (bytes: Uint8Array, start: number) => decoded[bytes[start]],
    encode(value: unknown): Uint8Array {
      const code = enumerationCode(names, value);
      if (code < 0 || code > 255) throw new KlvEncodeError(`enumeration code ${code} does not fit one byte`);
      return Uint8Array.of(code);
    },
  };
}
