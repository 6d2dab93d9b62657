import { expect } from 'chai';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { mpegtsPmtIntervals as check } from '../src/mpegts-pmt-intervals.js';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CLEAN_STREAMS, withFault } from './streams.js';
import { EditableStream, MORE_CLEAN_STREAMS, cleanStream } from './mpegts-test-streams.js';

describe('mpegts-pmt-intervals', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: [
      ...CLEAN_STREAMS,
      ...MORE_CLEAN_STREAMS,
      { name: 'one PMT lost to a bad CRC (197.5 ms between the others)', input: withFault('psi-crc@2,pid=0x1000') },
      { name: 'a PAT gap does not touch the PMT cadence', input: withFault('pat-gap@2') },
    ],
    invalid: [{ name: 'pmt-gap@2', input: withFault('pmt-gap@2'), violations: 'ground-truth' }],
  });

  it('measures every interval of each PMT PID of a clean stream, the first included: 30 of 98.762667 ms on PID 0x1000', async () => {
    const { result } = await runCheck(check, cleanStream());
    expect(result.points.map((p) => [p.pid, p.value])).to.deep.equal(Array<[number, number]>(30).fill([0x1000, 98.762667]));
    expect(result.points[0]).to.include({ packetIndex: 198, type: 'pmt-interval', message: 'PMT on PID 0x1000' });
  });

  it('reports a 1 s PMT gap at the first PMT after it, citing MISB ST 1402 and TR 101 290 1.5.a', async () => {
    const { violations, faults } = await runCheck(check, withFault('pmt-gap@2'));
    expect(violations.map((v) => [v.packetIndex, v.pid, v.value, v.citation, v.message])).to.deep.equal([
      [faults[0].packetIndex, 0x1000, 1086.389333, 'MISB ST 1402; ETSI TR 101 290 5.2.1 1.5.a', 'PMT on PID 0x1000 1086.389 ms after the previous one, more than 250 ms'],
    ]);
  });

  it("fails a 395 ms gap under ST 1402's 250 ms but not under TR 101 290's 500 ms", async () => {
    const input = withFault('pmt-gap@2,durationMs=300');
    expect((await runCheck(check, input)).violations.map((v) => v.value)).to.deep.equal([395.050667]);
    expect((await runCheck(check, input, { maxIntervalMs: 500 })).violations).to.deep.equal([]);
  });

  it('is not applicable when no PMT is found (its PID differs from the one the PAT names)', async () => {
    const s = new EditableStream(cleanStream().generate);
    s.movePid(0x1000, 0x1001);
    const { result } = await runCheck(check, s.bytes);
    expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['not-applicable', 'no PMT section in the stream']);
  });

  it('fails the aphill cut on its two ~0.5 s holes, as its PAT', async function () {
    const { violations } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts') });
    // The first PMT (packet 2) comes before the first PCR, the next at packet 44; then 44 -> 86.
    expect(violations.map((v) => [v.packetIndex, v.value])).to.deep.equal([
      [44, 538.461538],
      [86, 496.288799],
    ]);
  });
});
