/**
 * Lists of BER-OID integers back to back, no lengths between them: ST 0601
 * item 116 (Control Command Verification List: the IDs of received
 * commands) and item 121 (Active Wavelength List: wavelength IDs).
 */
import { encodeBerOid } from './ber-oid.js';
import { requireNumber } from './big-endian-integer.js';
import { KlvEncodeError } from './klv-encode-error.js';
import { concatBytes } from './nested-local-set-codec.js';
import { PackReader } from './pack-reader.js';
import type { ValueCodec } from './value-codec.js';

export function berOidListCodec(what: string): ValueCodec {
  return {
    valueType: 'list of BER-OID',
    length: { kind: 'variable' },
    range: null,
    resolution: null,
    decode(bytes: Uint8Array, start: number, end: number): unknown {
      const reader = new PackReader(bytes, start, end);
      const ids: number[] = [];
      while (reader.remaining > 0) {
        const id = reader.berOid(`${what} entry ${ids.length + 1}`);
        if (!reader.failed) ids.push(id);
      }
      return reader.finish(ids);
    },
    encode(value: unknown): Uint8Array {
      if (!Array.isArray(value)) throw new KlvEncodeError(`${what} needs an array of numbers, got ${JSON.stringify(value)}`);
      return concatBytes((value as unknown[]).map((id) => encodeBerOid(requireNumber(id, `${what} entry`))));
    },
  };
}
