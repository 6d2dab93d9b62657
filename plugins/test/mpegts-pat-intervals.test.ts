import { expect } from 'chai';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { mpegtsPatIntervals as check } from '../src/mpegts-pat-intervals.js';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CLEAN_STREAMS, withFault } from './streams.js';
import { EditableStream, MORE_CLEAN_STREAMS, cleanStream } from './mpegts-test-streams.js';

describe('mpegts-pat-intervals', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: [
      ...CLEAN_STREAMS,
      ...MORE_CLEAN_STREAMS,
      // The section with the bad CRC is not a PAT: two carousel periods, 197.5 ms, within 250 ms.
      { name: 'one PAT lost to a bad CRC', input: withFault('psi-crc@2') },
    ],
    invalid: [{ name: 'pat-gap@2', input: withFault('pat-gap@2'), violations: 'ground-truth' }],
  });

  it('measures every interval of a clean stream, the first PAT (before the first PCR) included: 30 of 98.762667 ms', async () => {
    const { result } = await runCheck(check, cleanStream());
    expect(result.points.map((p) => p.value)).to.deep.equal(Array<number>(30).fill(98.762667));
    expect(result.points[0]).to.include({ packetIndex: 197, pid: 0, type: 'pat-interval', unit: 'ms', violation: false, message: 'PAT' });
  });

  it('reports a 1 s PAT gap at the first PAT after it, valued in ms, citing MISB ST 1402 and TR 101 290 1.3.a', async () => {
    const { violations, faults } = await runCheck(check, withFault('pat-gap@2'));
    expect(violations.map((v) => [v.packetIndex, v.value, v.severity, v.citation, v.message])).to.deep.equal([
      [faults[0].packetIndex, 1086.389333, 'error', 'MISB ST 1402; ETSI TR 101 290 5.2.1 1.3.a', 'PAT 1086.389 ms after the previous one, more than 250 ms'],
    ]);
  });

  it("fails a 395 ms gap under ST 1402's 250 ms but not under TR 101 290's 500 ms", async () => {
    const input = withFault('pat-gap@2,durationMs=300');
    expect((await runCheck(check, input)).violations.map((v) => v.value)).to.deep.equal([395.050667]);
    expect((await runCheck(check, input, { maxIntervalMs: 500 })).violations).to.deep.equal([]);
  });

  it('is not applicable to data without a PAT', async () => {
    const s = new EditableStream(cleanStream().generate);
    s.movePid(0, 0x1fff);
    const { result } = await runCheck(check, s.bytes);
    expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['not-applicable', 'no PAT section in the stream']);
  });

  it('fails the aphill cut on its two ~0.5 s holes: from the PAT before the first PCR, and one a second in', async function () {
    const { violations } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts') });
    // The first PAT is at packet 1, before the first PCR (packet 3); the next at packet 43, 0.513 s in: 538 ms,
    // timing packet 1 by the byte rate of the first PCR interval. Then 43 -> 85 spans the second PCR.
    expect(violations.map((v) => [v.packetIndex, v.value])).to.deep.equal([
      [43, 538.461538],
      [85, 504.723347],
    ]);
  });

  it('passes the osh sample, whose PATs come every 38 ms or less', async function () {
    const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts') });
    expect([result.summary.verdict, result.summary.points, result.summary.value?.max]).to.deep.equal(['pass', 297, 38.324421]);
  });
});
