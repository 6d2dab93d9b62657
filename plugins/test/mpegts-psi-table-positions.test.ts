import { expect } from 'chai';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { mpegtsPsiTablePositions as check } from '../src/mpegts-psi-table-positions.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('mpegts-psi-table-positions', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({ valid: CLEAN_STREAMS });

  it("places every PAT and PMT section, typed 'PAT' or 'PMT', with the interval since the previous one of its table", async () => {
    const { result } = await runCheck(check, CLEAN_STREAMS[0].input);
    const pats = result.points.filter((p) => p.type === 'PAT');
    const pmts = result.points.filter((p) => p.type === 'PMT');
    // 3 s with a table every 100 ms from t = 0: 31 of each (the generator's carousel), the first without an interval.
    expect([pats.length, pmts.length]).to.deep.equal([31, 31]);
    // The first two come before the first PCR (no stream time yet, so no interval); then every ~100 ms
    // in whole packet slots (98.76 ms at 3 Mb/s).
    expect(pats.slice(0, 2).map((p) => p.value)).to.deep.equal([null, null]);
    expect(pats.slice(2).every((p) => p.value !== null && Math.abs(p.value - 100) < 2)).to.be.true;
    expect(result.points.every((p) => !p.violation)).to.be.true;
  });

  it('shows a PAT gap as a long interval but, informational, no violation', async () => {
    const { result, faults, violations } = await runCheck(check, withFault('pat-gap@2'));
    const after = result.points.find((p) => p.packetIndex === faults[0].packetIndex);
    expect(after?.type).to.equal('PAT');
    expect(after?.value).to.be.greaterThan(1000);
    expect(violations).to.deep.equal([]);
  });
});
