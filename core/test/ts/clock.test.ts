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

  it('reduces differences of values beyond the modulus as well (they are no valid clock values, but stay defined)', () => {
    expect(ptsDelta90kHz(0, 3 * PTS_MODULUS + 5)).to.equal(5);
    expect(ptsDelta90kHz(3 * PTS_MODULUS + 5, 0)).to.equal(-5);
    expect(pcrDelta27MHz(0, -2 * PCR_MODULUS - 7)).to.equal(-7);
  });

  it('takes the PCR extension of a PCR between ticks (a PCR interpolated at a PES)', () => {
    // 50 base ticks and 299.5 of 300: the PCR is 50.998 33 ticks of 90 kHz.
    expect(ptsMinusPcr90kHz(100, 50 * 300 + 299.5)).to.be.closeTo(100 - (50 * 300 + 299.5) / 300, 1e-12);
    expect(ptsMinusPcr90kHz(100, 50 * 300 + 299.5)).to.equal(100 - 50 - 299.5 / 300);
  });
});
