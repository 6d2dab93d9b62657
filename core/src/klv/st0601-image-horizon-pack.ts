/**
 * ST 0601 item 81, Image Horizon Pixel Pack: a DLP of the horizon's start
 * and end points in the image (x0, y0, x1, y1: uint8 percentages of the
 * image width and height), optionally followed by the geographic positions
 * of those two points, each latitude and longitude mapped as items 13 and
 * 14 (int32, ±90° and ±180°). So 4 or 20 bytes (ST 0601.17 item 81).
 */
import { KlvEncodeError } from './klv-encode-error.js';
import { signedMapCodec } from './mapped-integer.js';
import { concatBytes } from './nested-local-set-codec.js';
import type { ValueCodec } from './value-codec.js';
import { requireRecord } from './vlp-series.js';

const LATITUDE = signedMapCodec(4, 90);
const LONGITUDE = signedMapCodec(4, 180);

export interface St0601ImageHorizon {
  readonly startX: number;
  readonly startY: number;
  readonly endX: number;
  readonly endY: number;
  readonly startLatitude?: unknown;
  readonly startLongitude?: unknown;
  readonly endLatitude?: unknown;
  readonly endLongitude?: unknown;
}

const POINT_KEYS = ['startX', 'startY', 'endX', 'endY'] as const;

export const st0601ImageHorizonPackCodec: ValueCodec = {
  valueType: 'DLP',
  length: { kind: 'choice', bytes: [4, 20] },
  range: null,
  resolution: null,
  decode(bytes: Uint8Array, start: number, end: number): unknown {
    const base: St0601ImageHorizon = { startX: bytes[start], startY: bytes[start + 1], endX: bytes[start + 2], endY: bytes[start + 3] };
    if (end - start === 4) return base;
    return {
      ...base,
      startLatitude: LATITUDE.decode(bytes, start + 4, start + 8),
      startLongitude: LONGITUDE.decode(bytes, start + 8, start + 12),
      endLatitude: LATITUDE.decode(bytes, start + 12, start + 16),
      endLongitude: LONGITUDE.decode(bytes, start + 16, start + 20),
    };
  },
  encode(value: unknown): Uint8Array {
    const record = requireRecord(value, 'image horizon pack');
    const head = new Uint8Array(4);
    POINT_KEYS.forEach((key, i) => {
      const v = record[key];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 255) throw new KlvEncodeError(`image horizon ${key} needs 0..255, got ${JSON.stringify(v)}`);
      head[i] = v;
    });
    if (record.startLatitude === undefined) return head;
    return concatBytes([
      head,
      LATITUDE.encode(record.startLatitude),
      LONGITUDE.encode(record.startLongitude),
      LATITUDE.encode(record.endLatitude),
      LONGITUDE.encode(record.endLongitude),
    ]);
  },
};
