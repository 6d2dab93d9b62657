/**
 * ST 0601 item 127, Sensor Frame Rate Pack: a DLP of the numerator and an
 * optional denominator, both BER-OID; a missing denominator means 1
 * (ST 0601.17 item 127).
 */
import { encodeBerOid } from './ber-oid.js';
import { requireNumber } from './big-endian-integer.js';
import { concatBytes } from './nested-local-set-codec.js';
import { PackReader } from './pack-reader.js';
import type { ValueCodec } from './value-codec.js';
import { requireRecord } from './vlp-series.js';

export interface St0601FrameRate {
  readonly numerator: number;
  readonly denominator: number;
}

export const st0601FrameRatePackCodec: ValueCodec = {
  valueType: 'DLP',
  length: { kind: 'range', min: 1, max: 16 },
  range: null,
  resolution: null,
  decode(bytes: Uint8Array, start: number, end: number): unknown {
    const reader = new PackReader(bytes, start, end);
    const numerator = reader.berOid('frame rate numerator');
    const denominator = reader.remaining > 0 ? reader.berOid('frame rate denominator') : 1;
    if (reader.remaining > 0) reader.fail(`${reader.remaining} bytes after the denominator`);
    return reader.finish<St0601FrameRate>({ numerator, denominator });
  },
  encode(value: unknown): Uint8Array {
    const record = requireRecord(value, 'frame rate');
    const numerator = encodeBerOid(requireNumber(record.numerator, 'frame rate numerator'));
    const denominator = record.denominator === undefined ? 1 : requireNumber(record.denominator, 'frame rate denominator');
    return denominator === 1 ? numerator : concatBytes([numerator, encodeBerOid(denominator)]);
  },
};
