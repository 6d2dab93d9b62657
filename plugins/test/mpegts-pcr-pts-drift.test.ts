import { expect } from 'chai';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { mpegtsPcrPtsDrift as check } from '../src/mpegts-pcr-pts-drift.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('mpegts-pcr-pts-drift', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({ valid: CLEAN_STREAMS });

  it("measures the generator's decoder delay: PTS a few hundred ms ahead of the PCR", async () => {
    const { result } = await runCheck(check, CLEAN_STREAMS[0].input);
    // The generator sends each frame at most 400 ms before its DTS (earlier for a large frame), and
    // PTS adds the B-frame reordering: measured 326-500 ms, pinned with some room.
    expect(result.summary.value?.min).to.be.within(300, 400);
    expect(result.summary.value?.max).to.be.within(400, 600);
  });

  it('finds the PTS in the past from the first PES after a forward PCR jump, and every one after', async () => {
    const { violations, faults } = await runCheck(check, withFault('pcr-jump-forward@2'));
    const [fault] = faults;
    expect(violations.length).to.be.greaterThan(0);
    expect(violations.every((v) => v.packetIndex > fault.packetIndex && v.type === 'pts-before-pcr')).to.be.true;
    // The first PES after the jump is the first violation: within the next PCR interval (40 ms at 3 Mb/s, ~80 packets).
    expect(violations[0].packetIndex - fault.packetIndex).to.be.below(200);
  });
});
