/**
 * ST 0601 item 140, Weapons Stores: a series of VLP records, each the
 * station, hardpoint, carriage and store IDs (BER-OID each), a status word
 * (BER-OID: general status in the low byte, engagement status bits above
 * it) and the weapon type (BER length + UTF-8) (ST 0601.17 item 140).
 */
import { encodeBerLength } from './ber-length.js';
import { encodeBerOid } from './ber-oid.js';
import { requireNumber } from './big-endian-integer.js';
import { decodeBitFlags, encodeBitFlags, type BitFlags } from './bit-flags-codec.js';
import { enumerationCode, enumerationName, type EnumeratedValue } from './enumeration-codec.js';
import { encodeUtf8, requireText } from './klv-string.js';
import { concatBytes } from './nested-local-set-codec.js';
import { PackReader } from './pack-reader.js';
import type { ValueCodec } from './value-codec.js';
import { readVlpSeries, requireRecord, writeVlpSeries } from './vlp-series.js';

export const WEAPON_GENERAL_STATUS = [
  'Off',
  'Initialization',
  'Ready/Degraded',
  'Ready/All Up Round',
  'Launch',
  'Free Flight',
  'Abort',
  'Miss Fire',
  'Hang Fire',
  'Jettisoned',
  'Stepped Over',
  'No Status Available',
] as const;

export const WEAPON_ENGAGEMENT_BITS = ['fuzeEnabled', 'laserEnabled', 'targetEnabled', 'weaponArmed'] as const;

export interface St0601WeaponStore {
  readonly stationId: number;
  readonly hardpointId: number;
  readonly carriageId: number;
  readonly storeId: number;
  readonly generalStatus: EnumeratedValue;
  readonly engagementStatus: BitFlags;
  readonly weaponType: string;
}

export const st0601WeaponsStoresCodec: ValueCodec = {
  valueType: 'series of VLP',
  length: { kind: 'variable' },
  range: null,
  resolution: null,
  decode(bytes: Uint8Array, start: number, end: number): unknown {
    const reader = new PackReader(bytes, start, end);
    const records = readVlpSeries(reader, 'weapon store', (r): St0601WeaponStore => {
      const stationId = r.berOid('station ID');
      const hardpointId = r.berOid('hardpoint ID');
      const carriageId = r.berOid('carriage ID');
      const storeId = r.berOid('store ID');
      const status = r.berOid('weapon status');
      const weaponType = r.utf8(r.berLength('weapon type length'), 'weapon type');
      const general = status & 0xff;
      return {
        stationId,
        hardpointId,
        carriageId,
        storeId,
        generalStatus: { code: general, name: enumerationName(WEAPON_GENERAL_STATUS, general) },
        engagementStatus: decodeBitFlags(WEAPON_ENGAGEMENT_BITS, Math.floor(status / 256)),
        weaponType,
      };
    });
    return reader.finish(records);
  },
  encode: (value: unknown) =>
    writeVlpSeries(value, 'weapons stores', (record) => {
      const r = requireRecord(record, 'weapon store');
      const status = encodeBitFlags(WEAPON_ENGAGEMENT_BITS, r.engagementStatus ?? 0) * 256 + enumerationCode(WEAPON_GENERAL_STATUS, r.generalStatus);
      const type = encodeUtf8(requireText(r.weaponType, 'weapon type'));
      return concatBytes([
        encodeBerOid(requireNumber(r.stationId, 'station ID')),
        encodeBerOid(requireNumber(r.hardpointId, 'hardpoint ID')),
        encodeBerOid(requireNumber(r.carriageId, 'carriage ID')),
        encodeBerOid(requireNumber(r.storeId, 'store ID')),
        encodeBerOid(status),
        encodeBerLength(type.length),
        type,
      ]);
    }),
};
