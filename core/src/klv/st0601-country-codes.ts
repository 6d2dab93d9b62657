/**
 * ST 0601 item 122, Country Codes: a VLP truncation pack of four fields, each
 * a BER length then its bytes: the coding method (an integer, the ST 0102
 * country coding method), the overflight country, the operator country and
 * the country of manufacture (strings). An empty field is "not given"; the
 * last two may be left out entirely (ST 0601.17 item 122).
 */
import { encodeBerLength } from './ber-length.js';
import { minimalUnsignedLength, encodeUnsigned, requireNumber } from './big-endian-integer.js';
import { encodeUtf8 } from './klv-string.js';
import { concatBytes } from './nested-local-set-codec.js';
import { PackReader } from './pack-reader.js';
import type { ValueCodec } from './value-codec.js';
import { requireRecord } from './vlp-series.js';

export interface St0601CountryCodes {
  readonly codingMethod: number;
  readonly overflightCountry: string | null;
  readonly operatorCountry: string | null;
  readonly countryOfManufacture: string | null;
}

function readCountry(reader: PackReader, what: string): string | null {
  if (reader.remaining === 0) return null;
  const length = reader.berLength(`${what} length`);
  return length === 0 ? null : reader.utf8(length, what);
}

export const st0601CountryCodesCodec: ValueCodec = {
  valueType: 'VLP (truncation pack)',
  length: { kind: 'variable' },
  range: null,
  resolution: null,
  decode(bytes: Uint8Array, start: number, end: number): unknown {
    const reader = new PackReader(bytes, start, end);
    const methodLength = reader.berLength('coding method length');
    if (methodLength < 1 || methodLength > 6) reader.fail(`coding method of ${methodLength} bytes`);
    const codingMethod = reader.unsigned(methodLength, 'coding method');
    const overflightCountry = readCountry(reader, 'overflight country');
    const operatorCountry = readCountry(reader, 'operator country');
    const countryOfManufacture = readCountry(reader, 'country of manufacture');
    if (reader.remaining > 0) reader.fail(`${reader.remaining} bytes after the country of manufacture`);
    return reader.finish<St0601CountryCodes>({ codingMethod, overflightCountry, operatorCountry, countryOfManufacture });
  },
  encode(value: unknown): Uint8Array {
    const record = requireRecord(value, 'country codes');
    const method = requireNumber(record.codingMethod, 'coding method');
    const field = (text: unknown) => {
      const bytes = typeof text === 'string' ? encodeUtf8(text) : new Uint8Array(0);
      return concatBytes([encodeBerLength(bytes.length), bytes]);
    };
    const parts = [encodeBerLength(minimalUnsignedLength(method)), encodeUnsigned(method, minimalUnsignedLength(method)), field(record.overflightCountry)];
    // Truncation: trailing absent countries are left out.
    if (typeof record.operatorCountry === 'string' || typeof record.countryOfManufacture === 'string') parts.push(field(record.operatorCountry));
    if (typeof record.countryOfManufacture === 'string') parts.push(field(record.countryOfManufacture));
    return concatBytes(parts);
  },
};
