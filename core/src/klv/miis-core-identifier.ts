/**
 * MISB ST 1204 MIIS Core Identifier in its binary form, carried by ST 0601
 * item 94: a version (BER-OID), a usage byte, then the UUIDs the usage byte
 * announces, in order: sensor, platform, window, minor (ST 1204.3 section
 * 6.3, Table 2). Usage bits: 6-5 sensor ID type, 4-3 platform ID type
 * (0 none, 1 managed, 2 virtual, 3 physical), 2 window ID present, 1 minor
 * ID present.
 */
import { encodeBerOid } from './ber-oid.js';
import { requireNumber } from './big-endian-integer.js';
import { enumerationName } from './enumeration-codec.js';
import { concatBytes } from './nested-local-set-codec.js';
import { PackReader } from './pack-reader.js';
import { uuidTextToBytes, uuidToSt1204Text } from './uuid-text.js';
import type { ValueCodec } from './value-codec.js';
import { requireRecord } from './vlp-series.js';

export const MIIS_ID_TYPES = ['None', 'Managed', 'Virtual', 'Physical'] as const;

export interface MiisCoreIdentifier {
  readonly version: number;
  readonly usage: number;
  readonly sensorIdType: string;
  readonly platformIdType: string;
  readonly sensorId?: string;
  readonly platformId?: string;
  readonly windowId?: string;
  readonly minorId?: string;
  /** The ST 1204 text form without its check value: "VVUU:ID/ID/...". */
  readonly text: string;
}

const UUID_FIELDS = ['sensorId', 'platformId', 'windowId', 'minorId'] as const;

function presentFields(usage: number): boolean[] {
  return [((usage >> 5) & 3) !== 0, ((usage >> 3) & 3) !== 0, (usage & 0x04) !== 0, (usage & 0x02) !== 0];
}

export const miisCoreIdentifierCodec: ValueCodec = {
  valueType: 'binary (ST 1204)',
  length: { kind: 'range', min: 2, max: 80 },
  range: null,
  resolution: null,
  decode(bytes: Uint8Array, start: number, end: number): unknown {
    const reader = new PackReader(bytes, start, end);
    const version = reader.berOid('MIIS version');
    const usage = reader.unsigned(1, 'MIIS usage');
    const out: Record<string, unknown> = {
      version,
      usage,
      sensorIdType: enumerationName(MIIS_ID_TYPES, (usage >> 5) & 3),
      platformIdType: enumerationName(MIIS_ID_TYPES, (usage >> 3) & 3),
    };
    const ids: string[] = [];
    presentFields(usage).forEach((present, i) => {
      if (!present || !reader.need(16, `MIIS ${UUID_FIELDS[i]}`)) return;
      const text = uuidToSt1204Text(bytes, reader.pos);
      reader.pos += 16;
      out[UUID_FIELDS[i]] = text;
      ids.push(text);
    });
    if (reader.remaining > 0) reader.fail(`${reader.remaining} bytes after the MIIS core identifier`);
    const hex2 = (n: number) => n.toString(16).padStart(2, '0').toUpperCase();
    out.text = `${hex2(version)}${hex2(usage)}:${ids.join('/')}`;
    return reader.finish(out as unknown as MiisCoreIdentifier);
  },
  encode(value: unknown): Uint8Array {
    const r = requireRecord(value, 'MIIS core identifier');
    const usage = requireNumber(r.usage, 'MIIS usage');
    const parts = [encodeBerOid(requireNumber(r.version, 'MIIS version')), Uint8Array.of(usage)];
    presentFields(usage).forEach((present, i) => {
      if (present) parts.push(uuidTextToBytes(r[UUID_FIELDS[i]]));
    });
    return concatBytes(parts);
  },
};
