/**
 * The live page's bit-rate chart under noise: readings whose PIDs change
 * every second (a broken feed reaches every PID) draw the busiest PIDs one by
 * one and the rest as one 'others' line, so the chart keeps a few series
 * whatever the feed, and every bit of each reading is drawn once.
 */
import { expect } from 'chai';
import type { LiveStatistics } from '../src/dashboard/live/live-records.js';
import { OTHER_PIDS } from '../src/dashboard/live/pid-label.js';
import { chartColumns, MAX_CHART_PIDS } from '../src/dashboard/live/statistics-columns.js';

function reading(seq: number, pids: Array<[number, number]>): LiveStatistics {
  const bitsPerSecond = pids.reduce((sum, [, bits]) => sum + bits, 0);
  return {
    seq,
    sessionId: 's',
    at: seq * 1000,
    status: 'receiving',
    bytesPerSecond: bitsPerSecond / 8,
    packetsPerSecond: 0,
    bitsPerSecond,
    pids: pids.map(([pid, bits]) => ({ pid, packets: 0, bitsPerSecond: bits })),
    klvPacketsPerSecond: 0,
    continuityErrors: 0,
    losses: { application: 0, rtpPackets: 0, socket: 0 },
    findings: 0,
  };
}

describe('the live bit-rate chart', () => {
  it('draws each PID of a multiplex on its own', () => {
    const { bitrate } = chartColumns([reading(1, [[0x100, 9e6], [0x102, 1e5]]), reading(2, [[0x100, 8e6]])]);
    expect(bitrate.series.map((s) => s.label)).to.deep.equal(['all', '0x0100', '0x0102']);
    expect(bitrate.columns.slice(2)).to.deep.equal([[9, 8], [0.1, 0]]);
  });

  it('draws the busiest PIDs and one line of the others when noise brings new PIDs every second', () => {
    // Two PIDs of the stream, and each second 60 noise PIDs never seen before, and the meter's own 'others'.
    const readings = Array.from({ length: 30 }, (_, second) =>
      reading(second + 1, [[0x100, 8e6], [0x101, 2e6], ...Array.from({ length: 60 }, (_, i): [number, number] => [0x200 + second * 60 + i, 1504]), [OTHER_PIDS, 5e5]]),
    );
    const { bitrate } = chartColumns(readings);
    expect(bitrate.series).to.have.length(1 + MAX_CHART_PIDS + 1);
    expect(bitrate.series.slice(1, 3).map((s) => s.label)).to.deep.equal(['0x0100', '0x0101']);
    expect(bitrate.series.at(-1)?.label).to.equal('others');
    // Each second, the lines add up to the whole multiplex.
    for (let row = 0; row < readings.length; row++) {
      const drawn = bitrate.columns.slice(2).reduce((sum, column) => sum + column[row], 0);
      expect(drawn).to.be.closeTo(bitrate.columns[1][row], 1e-9);
    }
  });
});
