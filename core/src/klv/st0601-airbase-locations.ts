/**
 * ST 0601 item 130, Airbase Locations: a VLP truncation pack of two
 * Location packs, each preceded by its BER length: take-off, then recovery.
 * A zero length means "unknown"; a missing recovery location means it equals
 * the take-off location (ST 0601.17 item 130).
 */
import { encodeBerLength } from './ber-length.js';
import { concatBytes } from './nested-local-set-codec.js';
import { PackReader } from './pack-reader.js';
import { readSt0601Location, writeSt0601Location, type St0601Location } from './st0601-location-pack.js';
import type { ValueCodec } from './value-codec.js';
import { requireRecord } from './vlp-series.js';

export interface St0601AirbaseLocations {
  readonly takeOff: St0601Location | null;
  readonly recovery: St0601Location | null;
  /** The pack was truncated after the take-off location, so recovery repeats it. */
  readonly recoverySameAsTakeOff: boolean;
}

function readLocationVlp(reader: PackReader, what: string): St0601Location | null {
  const length = reader.berLength(`${what} length`);
  if (reader.failed || length === 0) return null;
  return readSt0601Location(reader, reader.pos + length, what);
}

export const st0601AirbaseLocationsCodec: ValueCodec = {
  valueType: 'VLP (truncation pack)',
  length: { kind: 'range', min: 1, max: 26 },
  range: null,
  resolution: null,
  decode(bytes: Uint8Array, start: number, end: number): unknown {
    const reader = new PackReader(bytes, start, end);
    const takeOff = readLocationVlp(reader, 'take-off location');
    if (reader.remaining === 0) return reader.finish<St0601AirbaseLocations>({ takeOff, recovery: takeOff, recoverySameAsTakeOff: true });
    const recovery = readLocationVlp(reader, 'recovery location');
    if (reader.remaining > 0) reader.fail(`${reader.remaining} bytes after the recovery location`);
    return reader.finish<St0601AirbaseLocations>({ takeOff, recovery, recoverySameAsTakeOff: false });
  },
  encode(value: unknown): Uint8Array {
    const record = requireRecord(value, 'airbase locations');
    const vlp = (location: unknown, what: string) => {
      if (location === null || location === undefined) return Uint8Array.of(0);
      const bytes = writeSt0601Location(location, what);
      return concatBytes([encodeBerLength(bytes.length), bytes]);
    };
    const takeOff = vlp(record.takeOff, 'take-off location');
    if (record.recoverySameAsTakeOff === true) return takeOff;
    return concatBytes([takeOff, vlp(record.recovery, 'recovery location')]);
  },
};
