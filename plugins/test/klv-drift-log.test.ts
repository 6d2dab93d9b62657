import { expect } from 'chai';
import type { CheckContext, Point, PointFinding, PointPosition, PointSeries } from '@klvscope/core';
import { DriftPointLog } from '../src/klv-drift-log.js';

/** A context that only records the points. */
function recordingContext(points: Array<PointPosition & PointFinding>): CheckContext<unknown> {
  return {
    checkId: 'test',
    rules: {},
    point: (at, finding) => points.push({ ...at, ...finding }),
    measure: (at, value, series) => points.push({ ...at, ...series, value, violation: false, severity: 'info' }),
    notApplicable: () => undefined,
    setVerdict: () => undefined,
    observed: () => 0,
  };
}

describe('DriftPointLog', () => {
  it('emits held points in order, with their numbers and marks, across growth and compaction', () => {
    const points: Array<PointPosition & PointFinding> = [];
    const series: PointSeries = { message: 'the series label', unit: 'ms', citation: 'a citation', type: 'klv-drift' };
    const log = new DriftPointLog(recordingContext(points), 0x102, 'a citation', () => series);
    // 5000 points released 700 behind: the columns grow past 256 slots, then reuse released ones.
    for (let k = 0; k < 5000; k++) {
      const sequence = log.hold({ t: k === 3 ? null : k / 30, offset: k * 188, packetIndex: k, pid: 0x102 }, k / 30, k % 7, k);
      expect(sequence).to.equal(k);
      if (k === 4000) log.mark(k, 'klv-drift-excursion', 'the onset');
      expect(log.driftOf(k)).to.equal(k % 7);
      log.releaseBefore(k - 700);
    }
    expect(log.elapsedOf(4400)).to.equal(4400 / 30);
    log.releaseAll();
    expect(points.map((p) => p.packetIndex)).to.deep.equal(Array.from({ length: 5000 }, (_, k) => k));
    expect(points.every((p, k) => p.offset === k * 188 && p.value === k % 7 && p.unit === 'ms' && p.citation === 'a citation')).to.be.true;
    expect(points[3].t).to.equal(null);
    expect(points[4000]).to.include({ message: 'the onset', type: 'klv-drift-excursion', violation: true, severity: 'error' });
    expect(points.filter((p) => p.violation)).to.have.length(1);
    expect(points[10]).to.include({ message: 'the series label', type: 'klv-drift', violation: false });
  });

  it('gives a point that measures nothing no value and no unit', () => {
    const points: Point[] = [];
    const log = new DriftPointLog(recordingContext(points), 0x102, 'c', () => ({ message: 'label', unit: 'ms', citation: 'c', type: 'klv-drift' }));
    const sequence = log.hold({ t: null, offset: 0, packetIndex: 0, pid: 0x102 }, NaN, NaN, 0);
    log.mark(sequence, 'klv-drift-unmeasured', 'not measured');
    log.releaseAll();
    expect(points[0]).to.include({ value: null, unit: null, type: 'klv-drift-unmeasured', message: 'not measured', violation: false });
  });
});
