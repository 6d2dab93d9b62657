import { expect } from 'chai';
import { PCR_MODULUS, PTS_MODULUS, pcrDelta27MHz, ptsDelta90kHz, ptsMinusPcr90kHz, readPcr27MHz, readTimestamp90kHz, timestampMarkersValid } from '../../src/ts/clock.js';
import { timestamp, writePcr } from './packet-builder.js';

describe('system clock arithmetic', () => {
  it('reads a 42-bit PCR at its largest value', () => {
    const bytes = new Uint8Array(6);
    const max = PCR_MODULUS - 1;
    writePcr(bytes, 0, max);
    expect(readPcr27MHz(bytes, 0)).to.equal(max);
  });

  it('reads PCR base and extension separately: base 0x1_2345_6789, extension 299', () => {
    const bytes = new Uint8Array(6);
    writePcr(bytes, 0, 0x123456789 * 300 + 299);
    expect(readPcr27MHz(bytes, 0)).to.equal(0x123456789 * 300 + 299);
  });

  it('reads a 33-bit PTS with its marker bits set', () => {
    const bytes = Uint8Array.from(timestamp(0b0010, PTS_MODULUS - 1));
    expect(readTimestamp90kHz(bytes, 0)).to.equal(PTS_MODULUS - 1);
    expect(timestampMarkersValid(bytes, 0)).to.be.true;
  });

  it('sees a cleared marker bit', () => {
    const bytes = Uint8Array.from(timestamp(0b0010, 1234));
    bytes[2] &= 0xfe;
    expect(timestampMarkersValid(bytes, 0)).to.be.false;
  });

  it('steps across the 33-bit PTS wrap forwards', () => {
    expect(ptsDelta90kHz(PTS_MODULUS - 100, 50)).to.equal(150);
  });

  it('steps across the PCR wrap at 2^33 * 300 forwards and backwards', () => {
    expect(pcrDelta27MHz(PCR_MODULUS - 300, 600)).to.equal(900);
    expect(pcrDelta27MHz(600, PCR_MODULUS - 300)).to.equal(-900);
  });

  it('gives the decoder delay PTS - PCR in 90 kHz ticks across the wrap', () => {
    expect(ptsMinusPcr90kHz(9000, (PTS_MODULUS - 9000) * 300)).to.equal(18000);
  });
});
