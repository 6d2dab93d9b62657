/**
 * ST 0601 item 142, View Domain: a VLP truncation pack of up to three
 * intervals (sensor relative azimuth, elevation, roll), each a BER length
 * then a start IMAPB and a range IMAPB(0, 360) of half that length each.
 * Starts are IMAPB(0, 360) for azimuth and roll and IMAPB(-180, 180) for
 * elevation (ST 0601.18 item 142). A zero-length interval is "not given".
 */
import { encodeBerLength } from './ber-length.js';
import { createImapbMapping, imapbForward, type ImapbMapping, type ImapbValue } from './imapb.js';
import { KlvEncodeError } from './klv-encode-error.js';
import { concatBytes } from './nested-local-set-codec.js';
import { PackReader } from './pack-reader.js';
import { imapbInput } from './st0601-location-pack.js';
import type { ValueCodec } from './value-codec.js';
import { requireRecord } from './vlp-series.js';

/** Bytes of each half an encoder writes. */
const ENCODE_HALF_LENGTH = 4;

function mappings(a: number, b: number): ImapbMapping[] {
  const out: ImapbMapping[] = [];
  for (let length = 1; length <= 8; length++) out[length] = createImapbMapping(a, b, length);
  return out;
}

const AZIMUTH_START = mappings(0, 360);
const ELEVATION_START = mappings(-180, 180);
const ROLL_START = AZIMUTH_START;
const RANGE = mappings(0, 360);

export interface St0601ViewInterval {
  readonly start: ImapbValue;
  readonly range: ImapbValue;
}

export interface St0601ViewDomain {
  readonly azimuth: St0601ViewInterval | null;
  readonly elevation: St0601ViewInterval | null;
  readonly roll: St0601ViewInterval | null;
}

const PARTS = [
  ['azimuth', AZIMUTH_START],
  ['elevation', ELEVATION_START],
  ['roll', ROLL_START],
] as const;

export const st0601ViewDomainCodec: ValueCodec = {
  valueType: 'VLP (truncation pack)',
  length: { kind: 'variable' },
  range: null,
  resolution: null,
  decode(bytes: Uint8Array, start: number, end: number): unknown {
    const reader = new PackReader(bytes, start, end);
    const out: Record<string, St0601ViewInterval | null> = { azimuth: null, elevation: null, roll: null };
    for (const [name, startMappings] of PARTS) {
      if (reader.remaining === 0) break;
      const length = reader.berLength(`${name} interval length`);
      if (length === 0) continue;
      if (length % 2 !== 0 || length > 16) {
        reader.fail(`${name} interval length ${length} is not an even 2..16`);
        break;
      }
      const half = length / 2;
      out[name] = { start: reader.imapb(startMappings[half], `${name} start`), range: reader.imapb(RANGE[half], `${name} range`) };
    }
    if (reader.remaining > 0) reader.fail(`${reader.remaining} bytes after the roll interval`);
    return reader.finish(out as unknown as St0601ViewDomain);
  },
  encode(value: unknown): Uint8Array {
    const record = requireRecord(value, 'view domain');
    const intervals = PARTS.map(([name, startMappings]) => {
      const interval = record[name];
      if (interval === null || interval === undefined) return null;
      const r = requireRecord(interval, `${name} interval`);
      return concatBytes([
        encodeBerLength(2 * ENCODE_HALF_LENGTH),
        imapbForward(startMappings[ENCODE_HALF_LENGTH], imapbInput(r.start, `${name} start`)),
        imapbForward(RANGE[ENCODE_HALF_LENGTH], imapbInput(r.range, `${name} range`)),
      ]);
    });
    // Truncation: trailing absent intervals are left out, inner ones are written as zero length.
    while (intervals.length > 0 && intervals[intervals.length - 1] === null) intervals.pop();
    if (intervals.length === 0) throw new KlvEncodeError('view domain needs at least one interval');
    return concatBytes(intervals.map((i) => i ?? Uint8Array.of(0)));
  },
};
