/**
 * Sample values of every MISB ST 0601 item for round-trip and mutation
 * tests: minimum, maximum, zero and special values of numeric items, and a
 * few hand-picked values of every pack, list and nested set.
 */
import { expect } from 'chai';
import { decodeBitFlags } from '../../src/klv/bit-flags-codec.js';
import { OUT_OF_RANGE } from '../../src/klv/mapped-integer.js';
import { GENERIC_FLAG_BITS, POSITIONING_SOURCE_BITS, type St0601ItemSpec } from '../../src/klv/st0601-items.js';
import { WAYPOINT_INFO_BITS } from '../../src/klv/st0601-waypoint-list.js';
import { WEAPON_ENGAGEMENT_BITS } from '../../src/klv/st0601-weapons-stores.js';

/** Deep equality where numbers may differ by `tolerance`. */
export function closeTo(actual: unknown, expected: unknown, tolerance: number, path = 'value'): string[] {
  if (typeof expected === 'number' && typeof actual === 'number') {
    return Math.abs(actual - expected) <= tolerance ? [] : [`${path}: ${actual} != ${expected} (±${tolerance})`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [`${path}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`];
    return expected.flatMap((e, i) => closeTo(actual[i], e, tolerance, `${path}[${i}]`));
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null) return [`${path}: ${JSON.stringify(actual)} is not an object`];
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    const keys = new Set([...Object.keys(a), ...Object.keys(e)]);
    return [...keys].flatMap((k) => closeTo(a[k], e[k], tolerance, `${path}.${k}`));
  }
  return actual === expected ? [] : [`${path}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`];
}

export interface Sample {
  readonly input: unknown;
  /** The decoded value expected back; defaults to the input. */
  readonly expected?: unknown;
  /** Numeric tolerance; defaults to the item's resolution. */
  readonly tolerance?: number;
  /** Extra check of the decoded value, for values from other decoders. */
  readonly check?: (value: unknown) => void;
}

const UUID_1 = 'F592-F023-7336-4AF8-AA91-62C0-0F2E-B2DA';
const UUID_2 = '16B7-4341-0008-41A0-BE36-5B5A-B96A-3645';

/** Values of the items that are not plain numbers or strings. */
const PACK_SAMPLES: Record<number, Sample[]> = {
  34: [{ input: 2, expected: { code: 2, name: 'Icing Detected' } }, { input: 0, expected: { code: 0, name: 'Detector Off' } }],
  47: [{ input: 0x31, expected: decodeBitFlags(GENERIC_FLAG_BITS, 0x31) }, { input: 0, expected: decodeBitFlags(GENERIC_FLAG_BITS, 0) }],
  48: [
    {
      input: {
        items: [
          { tag: 1, value: 1 },
          { tag: 2, value: 1 },
          { tag: 3, value: '//US' },
          { tag: 12, value: 1 },
          { tag: 13, value: 'US' },
          { tag: 22, value: 12 },
        ],
      },
      check: (value) => {
        const set = value as { items: { tag: number; value: unknown }[]; problems: unknown[] };
        expect(set.items.map((i) => i.tag)).to.deep.equal([1, 2, 3, 12, 13, 22]);
        expect(set.items[2].value).to.equal('//US');
        expect(set.problems).to.deep.equal([]);
      },
    },
  ],
  60: [{ input: { station: 10, substation: 15, weaponType: 13, variant: 8 } }],
  61: [{ input: { station: 11, substation: 10 } }],
  63: [{ input: 8, expected: { code: 8, name: 'Continuous Zoom' } }, { input: 'Wide', expected: { code: 3, name: 'Wide' } }],
  66: [{ input: { hex: '0102' } }],
  73: [{ input: { items: [{ tag: 1, rawHex: '01' }, { tag: 2, rawHex: '4142' }] }, expected: { standard: 'MISB ST 0806', decoded: false, items: [{ tag: 1, rawHex: '01' }, { tag: 2, rawHex: '4142' }], errors: [] } }],
  74: [
    {
      input: { items: [{ tag: 3, value: 'Example' }, { tag: 4, value: 5 }] },
      check: (value) => {
        const set = value as { items: { tag: number; value: unknown }[]; problems: unknown[] };
        expect(set.items.map((i) => [i.tag, i.value])).to.deep.equal([
          [3, 'Example'],
          [4, 5],
        ]);
      },
    },
  ],
  77: [{ input: 5, expected: { code: 5, name: 'Test' } }],
  81: [
    { input: { startX: 10, startY: 20, endX: 90, endY: 30 } },
    {
      input: { startX: 0, startY: 100, endX: 100, endY: 0, startLatitude: 10, startLongitude: -20, endLatitude: -90, endLongitude: 180 },
      tolerance: 1e-7,
    },
  ],
  94: [
    {
      input: { version: 1, usage: 0x70, sensorId: UUID_1, platformId: UUID_2 },
      expected: { version: 1, usage: 0x70, sensorIdType: 'Physical', platformIdType: 'Virtual', sensorId: UUID_1, platformId: UUID_2, text: `0170:${UUID_1}/${UUID_2}` },
    },
  ],
  102: [{ input: { hex: 'a1b2' } }],
  115: [{ input: { id: 300, command: 'RTB', timestamp: 1_600_000_000_000_000 } }, { input: { id: 1, command: '' } }],
  116: [{ input: [1, 2, 200] }, { input: [] }],
  121: [{ input: [1, 5, 21] }],
  122: [
    { input: { codingMethod: 1, overflightCountry: 'US', operatorCountry: null, countryOfManufacture: 'CA' } },
    { input: { codingMethod: 14, overflightCountry: 'USA', operatorCountry: null, countryOfManufacture: null } },
  ],
  124: [{ input: 0b101, expected: decodeBitFlags(POSITIONING_SOURCE_BITS, 0b101) }],
  125: [{ input: 12, expected: { code: 12, name: 'Landed-Parked' } }],
  126: [{ input: 6, expected: { code: 6, name: 'Auto - Tracking' } }],
  127: [{ input: { numerator: 60000, denominator: 1001 } }, { input: { numerator: 30, denominator: 1 } }],
  128: [{ input: [{ id: 21, minNm: 380, maxNm: 750, name: 'VIS2' }, { id: 22, minNm: 0, maxNm: 1e9, name: '' }] }],
  130: [
    {
      input: {
        takeOff: { latitude: 38.5, longitude: -77.25, hae: 100 },
        recovery: { latitude: -12.125, longitude: 130 },
        recoverySameAsTakeOff: false,
      },
    },
    {
      input: { takeOff: { latitude: 1, longitude: 2 }, recovery: { latitude: 1, longitude: 2 }, recoverySameAsTakeOff: true },
    },
    { input: { takeOff: null, recovery: { latitude: 1, longitude: 2, hae: 9000 }, recoverySameAsTakeOff: false } },
  ],
  138: [
    {
      input: {
        count: 2,
        payloads: [
          { id: 0, type: { code: 0, name: 'Electro Optical MI Sensor' }, name: 'EO' },
          { id: 1, type: { code: 2, name: 'RADAR' }, name: 'SAR' },
        ],
      },
    },
  ],
  139: [{ input: { activeIds: [0, 3, 9] } }],
  140: [
    {
      input: [
        {
          stationId: 1,
          hardpointId: 2,
          carriageId: 3,
          storeId: 4,
          generalStatus: { code: 3, name: 'Ready/All Up Round' },
          engagementStatus: decodeBitFlags(WEAPON_ENGAGEMENT_BITS, 0b1001),
          weaponType: 'AGM',
        },
      ],
    },
  ],
  141: [
    {
      input: [
        { id: 1, order: 1, info: decodeBitFlags(WAYPOINT_INFO_BITS, 1), location: { latitude: 10.25, longitude: 20.5, hae: 300 } },
        { id: 200, order: -1 },
        { id: 3, order: 2, info: decodeBitFlags(WAYPOINT_INFO_BITS, 2) },
      ],
    },
  ],
  142: [
    { input: { azimuth: { start: 10, range: 90 }, elevation: null, roll: { start: 0, range: 360 } } },
    { input: { azimuth: null, elevation: { start: -180, range: 45.5 }, roll: null } },
  ],
  143: [{ input: { localId: 5, universalId: UUID_1 } }],
};

const FRAMED_SETS: Record<number, string> = { 95: 'MISB ST 1206', 97: 'MISB ST 1002', 98: 'MISB ST 1601', 99: 'MISB ST 1602', 100: 'MISB ST 1607', 101: 'MISB ST 1607' };

const IMAPB_SPECIALS = [
  { special: 'positive-infinity', identifier: 0 },
  { special: 'negative-infinity', identifier: 0 },
  { special: 'positive-quiet-nan', identifier: 0 },
  { special: 'negative-signalling-nan', identifier: 1 },
  { special: 'user-defined', identifier: 5 },
];

/** Minimum, maximum, zero and special values of an item, or its pack samples. */
export function samplesFor(spec: St0601ItemSpec): Sample[] {
  if (PACK_SAMPLES[spec.tag]) return PACK_SAMPLES[spec.tag];
  if (FRAMED_SETS[spec.tag]) {
    const items = [{ tag: 1, rawHex: '0a' }];
    return [{ input: { items }, expected: { standard: FRAMED_SETS[spec.tag], decoded: false, items, errors: [] } }];
  }
  if (spec.valueType === 'utf8') {
    const max = spec.length.kind === 'range' ? spec.length.max : 127;
    return [{ input: '' }, { input: 'A' }, { input: 'Ünïcödé ✓' }, { input: 'x'.repeat(max) }];
  }
  const range = spec.range!;
  const min = Math.max(range.min, -Number.MAX_SAFE_INTEGER);
  const max = Math.min(range.max, Number.MAX_SAFE_INTEGER);
  const values = [min, max, (min + max) / 2];
  if (min < 0 && max > 0) values.push(0);
  const samples: Sample[] = values.map((v) => ({ input: spec.resolution === 1 && !Number.isInteger(v) ? Math.round(v) : v }));
  if (spec.valueType.startsWith('int') && spec.resolution !== 1) samples.push({ input: OUT_OF_RANGE });
  if (spec.valueType === 'IMAPB') samples.push(...IMAPB_SPECIALS.map((input) => ({ input })));
  return samples;
}

