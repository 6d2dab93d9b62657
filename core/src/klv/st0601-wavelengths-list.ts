/**
 * ST 0601 item 128, Wavelengths List: a series of VLP records, each the
 * wavelength ID (BER-OID), the minimum and maximum wavelength in nanometres
 * (IMAPB(0, 1e9, 4 bytes) each) and the rest of the record as the band's
 * name (ST 0601.17 item 128; IDs 1-6 are predefined in its Table 14, custom
 * records start at 21).
 */
import { encodeBerOid } from './ber-oid.js';
import { requireNumber } from './big-endian-integer.js';
import { createImapbMapping, imapbForward, type ImapbValue } from './imapb.js';
import { encodeUtf8, requireText } from './klv-string.js';
import { concatBytes } from './nested-local-set-codec.js';
import { PackReader } from './pack-reader.js';
import { imapbInput } from './st0601-location-pack.js';
import type { ValueCodec } from './value-codec.js';
import { readVlpSeries, requireRecord, writeVlpSeries } from './vlp-series.js';

const WAVELENGTH = createImapbMapping(0, 1e9, 4);

export interface St0601Wavelength {
  readonly id: number;
  readonly minNm: ImapbValue;
  readonly maxNm: ImapbValue;
  readonly name: string;
}

export const st0601WavelengthsListCodec: ValueCodec = {
  valueType: 'series of VLP',
  length: { kind: 'variable' },
  range: null,
  resolution: null,
  decode(bytes: Uint8Array, start: number, end: number): unknown {
    const reader = new PackReader(bytes, start, end);
    const records = readVlpSeries(reader, 'wavelength', (r, recordEnd): St0601Wavelength => {
      const id = r.berOid('wavelength ID');
      const minNm = r.imapb(WAVELENGTH, 'minimum wavelength');
      const maxNm = r.imapb(WAVELENGTH, 'maximum wavelength');
      return { id, minNm, maxNm, name: r.utf8(Math.max(0, recordEnd - r.pos), 'wavelength name') };
    });
    return reader.finish(records);
  },
  encode: (value: unknown) =>
    writeVlpSeries(value, 'wavelengths list', (record) => {
      const r = requireRecord(record, 'wavelength');
      return concatBytes([
        encodeBerOid(requireNumber(r.id, 'wavelength ID')),
        imapbForward(WAVELENGTH, imapbInput(r.minNm, 'minimum wavelength')),
        imapbForward(WAVELENGTH, imapbInput(r.maxNm, 'maximum wavelength')),
        encodeUtf8(requireText(r.name, 'wavelength name')),
      ]);
    }),
};
