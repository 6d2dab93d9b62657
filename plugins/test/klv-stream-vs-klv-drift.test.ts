import { expect } from 'chai';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { klvStreamVsKlvDrift as check } from '../src/klv-stream-vs-klv-drift.js';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('klv-stream-vs-klv-drift', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({ valid: CLEAN_STREAMS });

  for (const kind of ['klv-clock-drift', 'klv-clock-drift-slow']) {
    it(`finds ${kind} from its first drifting packet on, and nothing before`, async () => {
      // 1 ms per second: the first drifting packet is one 30 Hz period's worth off (33 µs); clean packets are within 0.5 µs.
      const { violations, faults } = await runCheck(check, withFault(`${kind}@2`, 'sync'), { maxDriftMs: 0.01 });
      expect(violations.length).to.be.greaterThan(0);
      expect(violations[0].packetIndex).to.equal(faults[0].packetIndex);
      expect(Math.sign(violations[0].value ?? 0)).to.equal(kind === 'klv-clock-drift' ? 1 : -1);
    });
  }

  it('times KLV without PTS by the PCR at its position (kwiver_h264_klv.ts): applicable', async function () {
    const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts') });
    // 30 packets, none with PTS; the first comes before any PCR, the second is the origin: 28 drift points against the PCR time line; the synthetic time stamps
    // advance 33.3 ms per packet like the video, so the drift stays within a few ms.
    expect(result.summary.points).to.equal(28);
    expect(result.summary.verdict).to.equal('pass');
  });
});
