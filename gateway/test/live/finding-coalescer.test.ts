/**
 * The coalescer alone: a silence of the feed within a second publishes the
 * repeats held so far but keeps the second's kinds, so a pause of the event
 * loop (which reads as silence) cannot let a second follow more than
 * MAX_KINDS_PER_SECOND kinds one by one.
 */
import { expect } from 'chai';
import type { Point } from '@klvscope/core';
import { FindingCoalescer, MAX_KINDS_PER_SECOND, OTHER_PIDS, type CoalescedFinding } from '../../src/live/finding-coalescer.js';

const pointOfPid = (pid: number): Point => ({
  t: null,
  offset: 0,
  packetIndex: 0,
  pid,
  value: null,
  unit: null,
  violation: true,
  severity: 'error',
  message: 'cc error',
  citation: null,
  type: 'cc',
});

function collect(): { coalescer: FindingCoalescer; records: CoalescedFinding[] } {
  const records: CoalescedFinding[] = [];
  const coalescer = new FindingCoalescer((finding) => records.push({ ...finding, point: { ...finding.point } }));
  return { coalescer, records };
}

describe('the finding coalescer', () => {
  it('publishes the repeats held at a silence and goes on counting the same second against them', () => {
    const { coalescer, records } = collect();
    for (let i = 0; i < 5; i++) coalescer.add('mpegts-continuity', pointOfPid(256), 10_100 + i, 10_100 + i);
    coalescer.publishRepeats();
    for (let i = 0; i < 3; i++) coalescer.add('mpegts-continuity', pointOfPid(256), 10_500 + i, 10_500 + i);
    coalescer.close();
    expect(records.map((record) => [record.count, record.repeatOf])).to.deep.equal([
      [1, null],
      [4, 1],
      [3, 1],
    ]);
  });

  it('keeps the second\'s kinds bounded across a silence: past the limit, new PIDs go to the record of other PIDs', () => {
    const { coalescer, records } = collect();
    for (let pid = 0; pid < MAX_KINDS_PER_SECOND; pid++) coalescer.add('mpegts-continuity', pointOfPid(pid), 20_000, 20_000);
    coalescer.publishRepeats();
    for (let pid = MAX_KINDS_PER_SECOND; pid < MAX_KINDS_PER_SECOND + 10; pid++) coalescer.add('mpegts-continuity', pointOfPid(pid), 20_300, 20_300);
    coalescer.close();
    const firsts = records.filter((record) => record.repeatOf === null && record.point.pid !== OTHER_PIDS);
    expect(firsts).to.have.length(MAX_KINDS_PER_SECOND);
    const others = records.filter((record) => record.point.pid === OTHER_PIDS);
    expect(others.map((record) => record.count)).to.deep.equal([10]);
    expect(records.reduce((total, record) => total + record.count, 0)).to.equal(MAX_KINDS_PER_SECOND + 10);
  });

  it('starts a new second\'s kinds once the arrivals leave the open one', () => {
    const { coalescer, records } = collect();
    coalescer.add('mpegts-continuity', pointOfPid(256), 30_900, 30_900);
    coalescer.add('mpegts-continuity', pointOfPid(256), 30_950, 30_950);
    coalescer.add('mpegts-continuity', pointOfPid(256), 31_010, 31_010);
    coalescer.close();
    expect(records.map((record) => [record.count, record.repeatOf])).to.deep.equal([
      [1, null],
      [1, 1],
      [1, null],
    ]);
  });
});
