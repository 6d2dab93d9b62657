import { expect } from 'chai';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { klvPacketRateConsistency as check } from '../src/klv-packet-rate-consistency.js';
import { CLEAN_STREAMS, withFault } from './streams.js';

describe('klv-packet-rate-consistency', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: CLEAN_STREAMS,
    invalid: [
      { name: 'klv-dropout@2 (sync KLV)', input: withFault('klv-dropout@2', 'sync'), violations: 'ground-truth' },
      { name: 'klv-dropout@2.5 (async KLV)', input: withFault('klv-dropout@2.5', 'async'), violations: 'ground-truth' },
    ],
  });

  it('finds rate jitter, worst at the ground-truth packet', async () => {
    const { violations, faults, result } = await runCheck(check, withFault('klv-rate-jitter@2', 'sync'));
    expect(violations.length).to.be.greaterThan(0);
    expect(violations.every((v) => v.type === 'klv-rate-jitter')).to.be.true;
    const worst = result.points.reduce((a, b) => (Math.abs((b.value ?? 0) - 100 / 3) > Math.abs((a.value ?? 0) - 100 / 3) ? b : a));
    expect(worst.packetIndex).to.equal(faults[0].packetIndex);
  });

  it('uses a given rate instead of the detected one', async () => {
    // A 30 Hz stream judged against 10 Hz: every interval is off.
    const { violations, result } = await runCheck(check, CLEAN_STREAMS[3].input, { expectedRateHz: 10 });
    expect(violations.length).to.equal(result.summary.points);
  });
});
