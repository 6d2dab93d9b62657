import { expect } from 'chai';
import { PCR_HZ, writePcr } from '@klvscope/core';
import { MAX_PCR_STEP_MS, MAX_SPARSE_PCR_STEP_MS, PcrSchedule } from '../src/pcr-schedule.js';

const PCR_MODULUS = 2 ** 33 * 300;
const VIDEO = 0x100;
const AUDIO = 0x101;

/** A 188-byte packet of `pid`, with an adaptation field carrying `pcr27MHz` when given. */
function packet(pid: number, pcr27MHz?: number, discontinuity = false): Uint8Array {
  const bytes = new Uint8Array(188).fill(0xff);
  bytes[0] = 0x47;
  bytes[1] = pid >> 8;
  bytes[2] = pid & 0xff;
  bytes[3] = pcr27MHz === undefined ? 0x10 : 0x30;
  if (pcr27MHz !== undefined) {
    bytes[4] = 7;
    bytes[5] = 0x10 | (discontinuity ? 0x80 : 0);
    writePcr(bytes, 6, pcr27MHz);
  }
  return bytes;
}

const ms = (milliseconds: number): number => (milliseconds * PCR_HZ) / 1000;

/** Feeds the packets; returns the due time of each, segment by segment (the schedule closes a segment at each PCR). */
function dueTimes(schedule: PcrSchedule, packets: Uint8Array[], endOfFile = false): number[] {
  const times: number[] = [];
  const take = (): void => {
    for (let i = 0; i < schedule.segmentPackets; i++) times.push(Number(schedule.dueMs(i).toFixed(6)));
    schedule.clear();
  };
  for (const p of packets) if (schedule.add(p, 0)) take();
  if (endOfFile) {
    schedule.closeAtEnd();
    take();
  }
  return times;
}

describe('PCR schedule', () => {
  it('sends the packets before the first PCR at once, then interpolates by packet count between PCRs', () => {
    const schedule = new PcrSchedule();
    const times = dueTimes(schedule, [packet(0), packet(0x1000), packet(VIDEO, ms(1000)), packet(VIDEO), packet(AUDIO), packet(VIDEO), packet(VIDEO, ms(1040))]);
    expect(times).to.deep.equal([0, 0, 0, 10, 20, 30, 40]);
    expect(schedule.pcrPid).to.equal(VIDEO);
    expect(schedule.msPerPacket).to.equal(10);
  });

  it('paces by the first PID seen with a PCR and ignores the PCRs of others', () => {
    const schedule = new PcrSchedule();
    const times = dueTimes(schedule, [packet(AUDIO, ms(500)), packet(VIDEO, ms(9000)), packet(AUDIO, ms(520))]);
    expect(schedule.pcrPid).to.equal(AUDIO);
    expect(times).to.deep.equal([0, 10, 20]);
  });

  it('steps over the PCR wrap-around at 2^33 * 300 as ordinary time', () => {
    const schedule = new PcrSchedule();
    const nearWrap = PCR_MODULUS - ms(10);
    expect(dueTimes(schedule, [packet(VIDEO, nearWrap), packet(VIDEO), packet(VIDEO, ms(10))])).to.deep.equal([0, 10, 20]);
  });

  it('re-anchors on a backward jump: the packets go on at the last rate, and the new PCR counts from there', () => {
    const schedule = new PcrSchedule();
    const times = dueTimes(schedule, [packet(VIDEO, ms(5000)), packet(VIDEO, ms(5010)), packet(VIDEO), packet(VIDEO, ms(100)), packet(VIDEO, ms(120))]);
    expect(times).to.deep.equal([0, 10, 20, 30, 50]);
  });

  it('re-anchors on a forward jump beyond the largest PCR step, and on the discontinuity indicator', () => {
    const forward = dueTimes(new PcrSchedule(), [packet(VIDEO, ms(0)), packet(VIDEO, ms(10)), packet(VIDEO, ms(10 + MAX_PCR_STEP_MS + 1)), packet(VIDEO, ms(30 + MAX_PCR_STEP_MS + 1))]);
    expect(forward).to.deep.equal([0, 10, 20, 40]);
    const flagged = dueTimes(new PcrSchedule(), [packet(VIDEO, ms(0)), packet(VIDEO, ms(10)), packet(VIDEO, ms(15), true), packet(VIDEO, ms(20))]);
    expect(flagged).to.deep.equal([0, 10, 20, 25]);
  });

  it('takes a sparse PCR (one a second, as in kwiver\'s aphill sample) as time: the first step, and the next ones the packet rate explains', () => {
    const sparse = dueTimes(new PcrSchedule(), [packet(VIDEO, ms(0)), packet(VIDEO), packet(VIDEO, ms(1000)), packet(VIDEO), packet(VIDEO, ms(2000)), packet(VIDEO), packet(VIDEO, ms(2000 + MAX_SPARSE_PCR_STEP_MS + 1))]);
    expect(sparse).to.deep.equal([0, 500, 1000, 1500, 2000, 2500, 3000]);
  });

  it('continues after the end of the file at the last rate, and the first PCR of the next pass re-anchors', () => {
    const schedule = new PcrSchedule();
    const pass = [packet(0), packet(VIDEO, ms(1000)), packet(VIDEO), packet(VIDEO, ms(1020)), packet(AUDIO)];
    expect(dueTimes(schedule, pass, true)).to.deep.equal([0, 0, 10, 20, 30]);
    expect(dueTimes(schedule, pass, true)).to.deep.equal([40, 50, 60, 70, 80]);
  });
});
