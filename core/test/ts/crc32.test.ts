import { expect } from 'chai';
import { crc32Mpeg2 } from '../../src/ts/crc32.js';

describe('CRC-32/MPEG-2', () => {
  it('gives 0x0376E6E7 for the check string "123456789"', () => {
    expect(crc32Mpeg2(new TextEncoder().encode('123456789'))).to.equal(0x0376e6e7);
  });

  it('gives 0 over a section followed by its own CRC', () => {
    const section = Uint8Array.from([0x00, 0xb0, 0x0d, 0x00, 0x01, 0xc1, 0x00, 0x00, 0x00, 0x01, 0xf0, 0x00]);
    const crc = crc32Mpeg2(section);
    const whole = new Uint8Array(section.length + 4);
    whole.set(section);
    new DataView(whole.buffer).setUint32(section.length, crc);
    expect(crc32Mpeg2(whole)).to.equal(0);
  });
});
