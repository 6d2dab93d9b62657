import { expect } from 'chai';
import { writeAdaptationField, writePcr, AF_DISCONTINUITY, AF_RANDOM_ACCESS } from '../../src/gen/adaptation-field-writer.js';
import { readPcr } from './ts-reader.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('adaptation field writer', () => {
  it('encodes a PCR as 33-bit base, six reserved ones and a 9-bit extension', () => {
    const buf = new Uint8Array(6);
    writePcr(buf, 0, 0x123456789 * 300 + 299);
    expect(hex(buf)).to.equal('91a2b3c4ff2b');
    expect(readPcr(buf, 0)).to.equal(0x123456789 * 300 + 299);
  });

  it('round-trips the largest PCR below the wrap', () => {
    const buf = new Uint8Array(6);
    const pcr = 2 ** 33 * 300 - 1;
    writePcr(buf, 0, pcr);
    expect(readPcr(buf, 0)).to.equal(pcr);
  });

  it('writes flags, the PCR and 0xFF stuffing up to adaptation_field_length', () => {
    const buf = new Uint8Array(12);
    const end = writeAdaptationField(buf, 0, 10, AF_DISCONTINUITY | AF_RANDOM_ACCESS, 27_000_000);
    expect(end).to.equal(11);
    expect(hex(buf.subarray(0, 11))).to.equal('0ad0' + '0000afc87e00' + 'ffffff');
  });

  it('writes a lone length byte for a one-byte adaptation field', () => {
    const buf = new Uint8Array(2).fill(0xaa);
    expect(writeAdaptationField(buf, 0, 0, 0, -1)).to.equal(1);
    expect(hex(buf)).to.equal('00aa');
  });

  it('refuses a length too short for a PCR', () => {
    expect(() => writeAdaptationField(new Uint8Array(8), 0, 6, 0, 0)).to.throw(RangeError, 'adaptation_field_length 6');
  });
});
