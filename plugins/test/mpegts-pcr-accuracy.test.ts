// The PCR accuracy measurement of mpegts-errors (TR 101 290 2.4) on PCR sequences made by hand:
// what locks, what is judged, what starts a new stretch.
import { expect } from 'chai';
import type { PcrObservation } from '@klvscope/core';
import { PcrAccuracy } from '../src/mpegts-pcr-accuracy.js';

const PCR_MODULUS = 2 ** 33 * 300;
/** 27 MHz ticks per byte at 3 Mb/s. */
const TICKS_PER_BYTE = (27e6 * 8) / 3e6;
/** 79 packets between PCRs: 39.6 ms at 3 Mb/s. */
const SPACING = 79 * 188;

function pcr(offset: number, pcr27MHz: number): PcrObservation {
  return { kind: 'pcr', pid: 0x100, pcr27MHz: ((pcr27MHz % PCR_MODULUS) + PCR_MODULUS) % PCR_MODULUS, discontinuity: false, offset, packetIndex: offset / 188, t: null };
}

/** A constant-bitrate PCR sequence, each PCR rounded to the tick as a multiplexer writes it. */
function cbr(count: number, start27MHz = 97_200_000_000, ticksPerByte = TICKS_PER_BYTE): PcrObservation[] {
  return Array.from({ length: count }, (_, i) => pcr(i * SPACING, Math.round(start27MHz + i * SPACING * ticksPerByte)));
}

/** The errors reported, as [index, ns rounded] pairs. */
function judge(pcrs: PcrObservation[], toleranceNs = 500, forgetAt: number[] = []): Array<[number, number]> {
  const accuracy = new PcrAccuracy(toleranceNs);
  const errors: Array<[number, number]> = [];
  pcrs.forEach((p, i) => {
    if (forgetAt.includes(i)) accuracy.forgetAll();
    const error = accuracy.sample(p);
    if (error !== null) errors.push([i, Math.round(error)]);
  });
  return errors;
}

describe('PCR accuracy on constant-bitrate stretches (mpegts-errors, TR 101 290 2.4)', () => {
  it('finds nothing in 1000 PCRs of a constant-bitrate stream, wrap-around included', () => {
    expect(judge(cbr(1000))).to.deep.equal([]);
    expect(judge(cbr(1000, PCR_MODULUS - 27_000_000))).to.deep.equal([]);
  });

  it('holds a second of PCRs sent every 2 packets (several hundred, beyond the window’s first size) and still finds one 600 ns off', () => {
    const dense = Array.from({ length: 2000 }, (_, i) => pcr(i * 376, Math.round(97_200_000_000 + i * 376 * TICKS_PER_BYTE)));
    expect(judge(dense)).to.deep.equal([]);
    dense[1500] = pcr(dense[1500].offset, dense[1500].pcr27MHz + 16.2);
    expect(judge(dense)).to.deep.equal([[1500, 600]]);
  });

  it('reports one PCR 600 ns off once, and lets one 400 ns off pass', () => {
    const pcrs = cbr(100);
    pcrs[50] = pcr(pcrs[50].offset, pcrs[50].pcr27MHz + 16.2); // 600 ns
    pcrs[70] = pcr(pcrs[70].offset, pcrs[70].pcr27MHz + 10.8); // 400 ns
    expect(judge(pcrs)).to.deep.equal([[50, 600]]);
  });

  it('judges nothing before five PCRs lie on one line', () => {
    const pcrs = cbr(10);
    pcrs[3] = pcr(pcrs[3].offset, pcrs[3].pcr27MHz + 270); // 10 µs, while the stretch is not locked yet
    expect(judge(pcrs)).to.deep.equal([]);
  });

  it('never judges a variable-bitrate stream, whose byte rate changes from one PCR interval to the next', () => {
    let at = 0;
    let value = 97_200_000_000;
    const pcrs = Array.from({ length: 200 }, (_, i) => {
      const p = pcr(at, value);
      const packets = 79 + ((i * 7) % 5) - 2; // 77..81 packets for the same 39.6 ms
      at += packets * 188;
      value += Math.round(SPACING * TICKS_PER_BYTE);
      return p;
    });
    expect(judge(pcrs)).to.deep.equal([]);
  });

  it('takes a lasting rate change as the end of the stretch after five errors, then measures the new rate', () => {
    // From PCR 50 on the multiplex runs 100 ppm faster: each PCR 4 µs further off the old line.
    const ticks = (i: number): number => (i <= 50 ? i : 50 + (i - 50) * 1.0001) * SPACING * TICKS_PER_BYTE;
    const pcrs = Array.from({ length: 100 }, (_, i) => pcr(i * SPACING, Math.round(97_200_000_000 + ticks(i))));
    expect(judge(pcrs).map(([i]) => i)).to.deep.equal([51, 52, 53, 54, 55]);
  });

  it('does not take lost bytes for an inaccurate PCR once told they were lost', () => {
    // One packet lost before PCR 60: every later PCR arrives 188 bytes early for its value.
    const pcrs = cbr(100).map((p, i) => (i < 60 ? p : pcr(p.offset - 188, p.pcr27MHz)));
    expect(judge(pcrs)).to.have.length(5);
    expect(judge(pcrs, 500, [60])).to.deep.equal([]);
  });
});
