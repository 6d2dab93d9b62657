/**
 * ST 0601 items 60 (Weapon Load, uint16) and 61 (Weapon Fired, uint8), the
 * nibble-packed weapon items that item 140 (Weapons Stores) replaces
 * (ST 0601.17 items 60, 61). Weapon Load: first byte station number (high
 * nibble) and substation (low nibble), second byte weapon type (high
 * nibble) and variant (low nibble). Weapon Fired: the fired store's station
 * and substation, same nibble layout as Weapon Load's first byte.
 */
import { KlvEncodeError } from './klv-encode-error.js';
import type { ValueCodec } from './value-codec.js';
import { requireRecord } from './vlp-series.js';

function nibble(record: Record<string, unknown>, key: string): number {
  const v = record[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 15) throw new KlvEncodeError(`${key} needs 0..15, got ${JSON.stringify(v)}`);
  return v;
}

export interface St0601WeaponLoad {
  readonly station: number;
  readonly substation: number;
  readonly weaponType: number;
  readonly variant: number;
}

export const st0601WeaponLoadCodec: ValueCodec = {
  valueType: 'uint16 (nibbles)',
  length: { kind: 'fixed', bytes: 2 },
  range: null,
  resolution: null,
  decode: (bytes: Uint8Array, start: number): St0601WeaponLoad => ({
    station: bytes[start] >> 4,
    substation: bytes[start] & 0x0f,
    weaponType: bytes[start + 1] >> 4,
    variant: bytes[start + 1] & 0x0f,
  }),
  encode(value: unknown): Uint8Array {
    const r = requireRecord(value, 'weapon load');
    return Uint8Array.of((nibble(r, 'station') << 4) | nibble(r, 'substation'), (nibble(r, 'weaponType') << 4) | nibble(r, 'variant'));
  },
};

export interface St0601WeaponFired {
  readonly station: number;
  readonly substation: number;
}

export const st0601WeaponFiredCodec: ValueCodec = {
  valueType: 'uint8 (nibbles)',
  length: { kind: 'fixed', bytes: 1 },
  range: null,
  resolution: null,
  decode: (bytes: Uint8Array, start: number): St0601WeaponFired => ({ station: bytes[start] >> 4, substation: bytes[start] & 0x0f }),
  encode(value: unknown): Uint8Array {
    const r = requireRecord(value, 'weapon fired');
    return Uint8Array.of((nibble(r, 'station') << 4) | nibble(r, 'substation'));
  },
};
