import { expect } from 'chai';
import { generateTransportStream } from '../../src/gen/index.js';
import { PCR_HZ } from '../../src/ts/clock.js';
import { PidBitrateCounter, type PidBitrateSeries } from '../../src/ts/pid-bitrate-series.js';
import { concatPackets, packet } from './packet-builder.js';

function count(bytes: Uint8Array, chunkSize: number, bucketSeconds = 1): PidBitrateSeries {
  const counter = new PidBitrateCounter(bucketSeconds);
  for (let at = 0; at < bytes.length; at += chunkSize) counter.push(bytes.subarray(at, at + chunkSize));
  return counter.finish();
}

function totalOf(series: PidBitrateSeries, bucket: number): number {
  return series.pids.reduce((sum, pid) => sum + pid.bitsPerSecond[bucket], 0);
}

describe('PidBitrateCounter (bit rate over time per PID)', () => {
  const { bytes } = generateTransportStream({ bitrate: 2_000_000, seed: 3, durationSeconds: 4, faults: [] });

  it('counts every packet once and reads a constant 2 Mb/s in each whole second', () => {
    const series = count(bytes, 65_536);
    expect(series.packets).to.equal(bytes.length / 188);
    expect(series.bucketCount).to.equal(4);
    for (let bucket = 0; bucket < 3; bucket++) expect(totalOf(series, bucket)).to.be.within(1_980_000, 2_020_000);
  });

  it('gives the same figures whatever the chunks the bytes come in', () => {
    expect(count(bytes, 1_001)).to.deep.equal(count(bytes, bytes.length));
  });

  it('spreads the packets of a PCR gap over the seconds they span, by the byte rate before it', () => {
    // A PCR every 100 ms with 9 other packets after it, but none from 1.1 s to 1.9 s: bytes still arrive at 100 packets a second.
    const packets: Uint8Array[] = [];
    for (let i = 0; i < 40; i++) {
      const hasPcr = !(i > 10 && i < 20);
      packets.push(packet({ pid: 0x100, pcr27MHz: hasPcr ? (i * PCR_HZ) / 10 : undefined, cc: i & 15 }));
      for (let j = 0; j < 9; j++) packets.push(packet({ pid: 0x101, cc: (i * 9 + j) & 15 }));
    }
    const series = count(concatPackets(packets), 188 * 7, 0.5);
    // 400 packets over 4 s (the last PCR at 3.9 s, one step more after it): 0.5 s buckets of 50 packets, 100 packets a second.
    expect(series.pids.map((pid) => pid.pid)).to.deep.equal([0x100, 0x101]);
    expect(series.bucketCount).to.equal(8);
    const packetsPerSecond = Array.from({ length: 8 }, (_, bucket) => Math.round((totalOf(series, bucket) / (188 * 8)) * 1e6) / 1e6);
    expect(packetsPerSecond).to.deep.equal([100, 100, 100, 100, 100, 100, 100, 100]);
  });

  /** 100 packets a second: a PCR (PID 0x100) every `stepSeconds` with the other packets (PID 0x101) between, then `tail` packets more. */
  function steadyRecording(stepSeconds: number, pcrs: number, tail: number): Uint8Array {
    const perStep = Math.round(stepSeconds * 100);
    const packets: Uint8Array[] = [];
    for (let i = 0; i < pcrs; i++) {
      packets.push(packet({ pid: 0x100, pcr27MHz: Math.round(i * stepSeconds * PCR_HZ), cc: i & 15 }));
      const others = i === pcrs - 1 ? tail - 1 : perStep - 1;
      for (let j = 0; j < others; j++) packets.push(packet({ pid: 0x101, cc: (i * perStep + j) & 15 }));
    }
    return concatPackets(packets);
  }

  function packetsPerSecond(series: PidBitrateSeries): number[] {
    return Array.from({ length: series.bucketCount }, (_, bucket) => Math.round((totalOf(series, bucket) / (188 * 8)) * 1e3) / 1e3);
  }

  it('divides a last bucket the recording ends inside by the time it covers, not by a whole bucket', () => {
    // PCRs every 0.5 s to 3.5 s, the recording ending 25 packets (0.25 s) after the last: the last 1 s bucket covers 0.75 s.
    const series = count(steadyRecording(0.5, 8, 25), 188 * 5);
    expect(series.bucketCount).to.equal(4);
    expect(series.lastBucketSeconds).to.be.closeTo(0.75, 1e-9);
    expect(packetsPerSecond(series)).to.deep.equal([100, 100, 100, 100]);
  });

  it('places a tail longer than the discontinuity limit at the rate before it, with no spike where the limit was', () => {
    // PCRs every 1 s to 3 s, then 150 packets (1.5 s) with no PCR after them: the 0.1 s buckets run to 4.5 s, 10 packets each
    // from the second PCR on (before it there is no rate: the first second's packets all count at 0 s).
    const series = count(steadyRecording(1, 4, 150), 188 * 64, 0.1);
    expect(series.bucketCount).to.equal(45);
    expect(series.lastBucketSeconds).to.be.closeTo(0.1, 1e-9);
    const afterSecondPcr = packetsPerSecond(series).slice(10);
    expect(afterSecondPcr).to.deep.equal(new Array(35).fill(100));
  });

  it('skips bytes that are no packets and never throws on them', () => {
    const garbage = new Uint8Array(5_000).fill(0x47);
    const series = count(new Uint8Array([...new Uint8Array(333).fill(7), ...bytes.subarray(0, 188 * 100)]), 4_096);
    expect(series.packets).to.equal(100);
    expect(() => count(garbage, 999)).to.not.throw();
  });
});
