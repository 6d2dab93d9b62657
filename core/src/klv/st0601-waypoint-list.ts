/**
 * ST 0601 item 141, Waypoint List: a series of VLP records, each the
 * waypoint ID (BER-OID), its prosecution order (int16; negative once
 * passed), then optionally an info byte (bit 0: 0 automated / 1 manual,
 * bit 1: 0 pre-planned / 1 ad hoc) and a Location pack (ST 0601.17 item 141).
 */
import { encodeBerOid } from './ber-oid.js';
import { encodeSigned, requireNumber } from './big-endian-integer.js';
import { decodeBitFlags, encodeBitFlags, type BitFlags } from './bit-flags-codec.js';
import { concatBytes } from './nested-local-set-codec.js';
import { PackReader } from './pack-reader.js';
import { readSt0601Location, writeSt0601Location, type St0601Location } from './st0601-location-pack.js';
import type { ValueCodec } from './value-codec.js';
import { readVlpSeries, requireRecord, writeVlpSeries } from './vlp-series.js';

export const WAYPOINT_INFO_BITS = ['manual', 'adHoc'] as const;

export interface St0601Waypoint {
  readonly id: number;
  readonly order: number;
  readonly info?: BitFlags;
  readonly location?: St0601Location;
}

export const st0601WaypointListCodec: ValueCodec = {
  valueType: 'series of VLP',
  length: { kind: 'variable' },
  range: null,
  resolution: null,
  decode(bytes: Uint8Array, start: number, end: number): unknown {
    const reader = new PackReader(bytes, start, end);
    const records = readVlpSeries(reader, 'waypoint', (r, recordEnd): St0601Waypoint => {
      const id = r.berOid('waypoint ID');
      const order = r.signed(2, 'prosecution order');
      if (r.pos >= recordEnd) return { id, order };
      const info = decodeBitFlags(WAYPOINT_INFO_BITS, r.unsigned(1, 'waypoint info'));
      if (r.pos >= recordEnd) return { id, order, info };
      return { id, order, info, location: readSt0601Location(r, recordEnd, 'waypoint location') };
    });
    return reader.finish(records);
  },
  encode: (value: unknown) =>
    writeVlpSeries(value, 'waypoint list', (record) => {
      const r = requireRecord(record, 'waypoint');
      const parts = [encodeBerOid(requireNumber(r.id, 'waypoint ID')), encodeSigned(requireNumber(r.order, 'prosecution order'), 2)];
      if (r.info !== undefined || r.location !== undefined) parts.push(Uint8Array.of(encodeBitFlags(WAYPOINT_INFO_BITS, r.info ?? 0) & 0xff));
      if (r.location !== undefined) parts.push(writeSt0601Location(r.location, 'waypoint location'));
      return concatBytes(parts);
    }),
};
