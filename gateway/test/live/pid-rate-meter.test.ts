/**
 * The live statistics' packets per PID: every PID of a real multiplex named,
 * and under noise (a packet on every PID) at most MAX_PIDS_PER_READING of
 * them, the busiest, the rest summed under OTHER_PIDS, the totals exact.
 */
import { expect } from 'chai';
import { TS_PACKET_SIZE } from '@klvscope/core';
import { OTHER_PIDS } from '../../src/live/finding-coalescer.js';
import { MAX_PIDS_PER_READING, PidRateMeter } from '../../src/live/pid-rate-meter.js';

/** `count` packets on `pid`, one chunk. */
function packets(pid: number, count: number): Uint8Array {
  const bytes = new Uint8Array(count * TS_PACKET_SIZE);
  for (let i = 0; i < count; i++) {
    bytes[i * TS_PACKET_SIZE] = 0x47;
    bytes[i * TS_PACKET_SIZE + 1] = pid >> 8;
    bytes[i * TS_PACKET_SIZE + 2] = pid & 0xff;
  }
  return bytes;
}

describe('the live packets-per-PID meter', () => {
  it('names every PID of a multiplex, by PID, with its rate over the interval', () => {
    const meter = new PidRateMeter();
    meter.push(packets(0x100, 30));
    meter.push(packets(0x0, 2));
    meter.push(packets(0x102, 5));
    const reading = meter.read(2);
    expect(reading.packets).to.equal(37);
    expect(reading.pids).to.deep.equal([
      { pid: 0x0, packets: 2, bitsPerSecond: 1504 },
      { pid: 0x100, packets: 30, bitsPerSecond: 22560 },
      { pid: 0x102, packets: 5, bitsPerSecond: 3760 },
    ]);
    expect(meter.read(1)).to.deep.equal({ packets: 0, pids: [] });
  });

  it('names the busiest PIDs only under noise on every PID, and sums the others exactly', () => {
    const meter = new PidRateMeter();
    const stream = [0x0, 0x20, 0x100, 0x101, 0x102];
    for (const pid of stream) meter.push(packets(pid, 50));
    // Noise: one packet on each of 3,000 other PIDs, two on a few.
    for (let pid = 0x200; pid < 0x200 + 3000; pid++) meter.push(packets(pid, pid < 0x210 ? 2 : 1));
    const reading = meter.read(1);
    expect(reading.packets).to.equal(5 * 50 + 3000 + 16);
    expect(reading.pids).to.have.length(MAX_PIDS_PER_READING + 1);
    const named = reading.pids.slice(0, -1).map((p) => p.pid);
    expect(named, 'by PID').to.deep.equal([...named].sort((a, b) => a - b));
    for (const pid of [...stream, 0x200, 0x20f]) expect(named, `PID ${pid}`).to.include(pid);
    const others = reading.pids.at(-1)!;
    expect(others.pid).to.equal(OTHER_PIDS);
    expect(reading.pids.reduce((sum, p) => sum + p.packets, 0), 'every packet counted once').to.equal(reading.packets);
    expect(others.bitsPerSecond).to.equal(others.packets * TS_PACKET_SIZE * 8);
  });
});
