/**
 * ST 0601 item 143, Metadata Substream ID Pack (added by ST 0601.18): a
 * DLP of a local substream ID (BER-OID) followed by a 16-byte universal ID
 * (UUID), identifying which of several metadata substreams a packet belongs
 * to. Layout taken from KWIVER's ST 0601 implementation (klv_0601_msid);
 * we could not check it against the standard's text.
 */
import { encodeBerOid } from './ber-oid.js';
import { requireNumber } from './big-endian-integer.js';
import { concatBytes } from './nested-local-set-codec.js';
import { PackReader } from './pack-reader.js';
import { uuidTextToBytes, uuidToSt1204Text } from './uuid-text.js';
import type { ValueCodec } from './value-codec.js';
import { requireRecord } from './vlp-series.js';

export interface St0601MetadataSubstreamId {
  readonly localId: number;
  readonly universalId: string;
}

export const st0601MetadataSubstreamIdCodec: ValueCodec = {
  valueType: 'DLP',
  length: { kind: 'range', min: 17, max: 21 },
  range: null,
  resolution: null,
  decode(bytes: Uint8Array, start: number, end: number): unknown {
    const reader = new PackReader(bytes, start, end);
    const localId = reader.berOid('local substream ID');
    if (reader.remaining !== 16) {
      reader.fail(`universal ID is 16 bytes, got ${reader.remaining}`);
      return reader.failure;
    }
    return { localId, universalId: uuidToSt1204Text(bytes, reader.pos) } satisfies St0601MetadataSubstreamId;
  },
  encode(value: unknown): Uint8Array {
    const r = requireRecord(value, 'metadata substream ID');
    return concatBytes([encodeBerOid(requireNumber(r.localId, 'local substream ID')), uuidTextToBytes(r.universalId)]);
  },
};
