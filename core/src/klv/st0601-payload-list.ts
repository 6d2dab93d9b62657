/**
 * ST 0601 item 138, Payload List: the payload count (BER-OID) followed by a
 * series of VLP records, each the payload ID (BER-OID), the payload type
 * (BER-OID: 0 electro-optical MI sensor, 1 LIDAR, 2 RADAR, 3 SIGINT) and the
 * payload name (BER length + UTF-8) (ST 0601.17 item 138).
 */
import { encodeBerLength } from './ber-length.js';
import { encodeBerOid } from './ber-oid.js';
import { requireNumber } from './big-endian-integer.js';
import { enumerationCode, enumerationName, type EnumeratedValue } from './enumeration-codec.js';
import { KlvEncodeError } from './klv-encode-error.js';
import { encodeUtf8, requireText } from './klv-string.js';
import { concatBytes } from './nested-local-set-codec.js';
import { PackReader } from './pack-reader.js';
import type { ValueCodec } from './value-codec.js';
import { readVlpSeries, requireRecord, writeVlpSeries } from './vlp-series.js';

export const PAYLOAD_TYPES = ['Electro Optical MI Sensor', 'LIDAR', 'RADAR', 'SIGINT'] as const;

export interface St0601Payload {
  readonly id: number;
  readonly type: EnumeratedValue;
  readonly name: string;
}

export interface St0601PayloadList {
  /** The count the producer wrote; it should equal `payloads.length`. */
  readonly count: number;
  readonly payloads: St0601Payload[];
}

export const st0601PayloadListCodec: ValueCodec = {
  valueType: 'VLP (count + series)',
  length: { kind: 'variable' },
  range: null,
  resolution: null,
  decode(bytes: Uint8Array, start: number, end: number): unknown {
    const reader = new PackReader(bytes, start, end);
    const count = reader.berOid('payload count');
    const payloads = readVlpSeries(reader, 'payload', (r): St0601Payload => {
      const id = r.berOid('payload ID');
      const code = r.berOid('payload type');
      const name = r.utf8(r.berLength('payload name length'), 'payload name');
      return { id, type: { code, name: enumerationName(PAYLOAD_TYPES, code) }, name };
    });
    return reader.finish<St0601PayloadList>({ count, payloads });
  },
  encode(value: unknown): Uint8Array {
    const list = requireRecord(value, 'payload list');
    if (!Array.isArray(list.payloads)) throw new KlvEncodeError('payload list needs a payloads array');
    const count = list.count === undefined ? list.payloads.length : requireNumber(list.count, 'payload count');
    const series = writeVlpSeries(list.payloads, 'payload list', (record) => {
      const r = requireRecord(record, 'payload');
      const name = encodeUtf8(requireText(r.name, 'payload name'));
      return concatBytes([
        encodeBerOid(requireNumber(r.id, 'payload ID')),
        encodeBerOid(enumerationCode(PAYLOAD_TYPES, r.type)),
        encodeBerLength(name.length),
        name,
      ]);
    });
    return concatBytes([encodeBerOid(count), series]);
  },
};
