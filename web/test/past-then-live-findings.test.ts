/** A probe session view's findings from the catalog and from the live channel, joined without a gap or a repeat, apart from the browser. */
import { expect } from 'chai';
import { PastThenLiveFindings } from '../src/dashboard/probes/past-then-live-findings.js';
import type { ProbeFinding } from '../src/dashboard/probes/probe-wire.js';

function finding(id: number): ProbeFinding {
  return {
    id,
    probe: 'lab-1',
    run: 1,
    seq: id,
    sessionId: 's1',
    checkId: 'klv-checksum-errors',
    t: null,
    packetIndex: id * 100,
    pid: 0x102,
    value: null,
    unit: null,
    severity: 'error',
    message: `finding ${id}`,
    count: 1,
    repeatOf: null,
    receivedAt: null,
    lastReceivedAt: null,
    emittedAt: id,
  };
}

const ids = (findings: ProbeFinding[]): number[] => findings.map((f) => f.id);

describe('a probe session view joins its stored and live findings', () => {
  it('holds live findings until the stored ones are in, then drops those the catalog already gave', () => {
    const join = new PastThenLiveFindings();
    expect(ids(join.live(finding(4)))).to.deep.equal([]);
    expect(ids(join.live(finding(5)))).to.deep.equal([]);
    // The catalog was read after the channel subscribed: it has 4 already, not 5.
    expect(ids(join.past([finding(1), finding(2), finding(4)]))).to.deep.equal([1, 2, 4, 5]);
    expect(ids(join.live(finding(6)))).to.deep.equal([6]);
  });

  it('passes a live finding the catalog had when the channel hands it over after the read', () => {
    const join = new PastThenLiveFindings();
    expect(ids(join.past([finding(7), finding(8)]))).to.deep.equal([7, 8]);
    expect(ids(join.live(finding(8)))).to.deep.equal([]);
    expect(ids(join.live(finding(9)))).to.deep.equal([9]);
  });

  it('shows every live finding when the stored ones could not be read', () => {
    const join = new PastThenLiveFindings();
    join.live(finding(3));
    expect(ids(join.past([]))).to.deep.equal([3]);
    expect(ids(join.live(finding(4)))).to.deep.equal([4]);
  });
});
