import { expect } from 'chai';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { mpegtsPcrMonotonicity as check } from '../src/mpegts-pcr-monotonicity.js';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CLEAN_STREAMS, withFault } from './streams.js';
import { EditableStream, MORE_CLEAN_STREAMS, cleanStream, signalledPcrJumpFault, withOwnFault } from './mpegts-test-streams.js';

describe('mpegts-pcr-monotonicity', function () {
  this.timeout(60_000);

  const signalled = withOwnFault({ kind: 'pcr-jump-signalled', atSeconds: 2 }, signalledPcrJumpFault);

  new CheckTester(check).cases({
    // The wrap-around stream crosses 2^33 * 300 one second in: a step of 39.6 ms like any other.
    valid: [...CLEAN_STREAMS, ...MORE_CLEAN_STREAMS, { name: 'a 1 s jump announced by discontinuity_indicator', input: signalled }],
    invalid: [
      { name: 'pcr-jump-backward@2', input: withFault('pcr-jump-backward@2'), violations: 'ground-truth' },
      { name: 'pcr-jump-forward@2', input: withFault('pcr-jump-forward@2'), violations: 'ground-truth' },
      // TR 101 290 2.3b judges PCR values: 200 ms without PCR is a 238 ms step too.
      { name: 'pcr-gap@2', input: withFault('pcr-gap@2'), violations: 'ground-truth' },
    ],
  });

  it('measures every step of a clean stream: 75 of 39.605333 ms', async () => {
    const { result } = await runCheck(check, cleanStream());
    const { count, min, max } = result.summary.value ?? {};
    expect([count, min, max]).to.deep.equal([75, 39.605333, 39.605333]);
    expect(result.points[0]).to.include({ type: 'pcr-step', violation: false, message: 'PCR on PID 0x0100: step' });
  });

  for (const [fault, type, value, message] of [
    ['pcr-jump-backward@2', 'pcr-backward', -960.394667, 'PCR on PID 0x0100 goes back 960.395 ms without discontinuity_indicator'],
    ['pcr-jump-forward@2', 'pcr-jump', 1039.605333, 'PCR on PID 0x0100 jumps 1039.605 ms forward without discontinuity_indicator (limit 100 ms)'],
  ] as const) {
    it(`reports ${fault} as '${type}' at its packet, valued by the step (39.6 ms of clock plus the 1 s jump)`, async () => {
      const { violations, faults } = await runCheck(check, withFault(fault));
      expect(violations.map((v) => [v.packetIndex, v.type, v.value, v.citation, v.message])).to.deep.equal([
        [faults[0].packetIndex, type, value, 'ETSI TR 101 290 5.2.2 2.3b; ISO/IEC 13818-1 2.4.3.5', message],
      ]);
    });
  }

  it('keeps the announced jump as a point of its own type, not a violation', async () => {
    const { result, faults } = await runCheck(check, signalled);
    const at = result.points.find((p) => p.packetIndex === faults[0].packetIndex);
    expect([at?.type, at?.value, at?.violation]).to.deep.equal(['pcr-signalled-discontinuity', 1039.605333, false]);
  });

  it('lets a 238 ms PCR gap pass under maxJumpMs 300', async () => {
    expect((await runCheck(check, withFault('pcr-gap@2'), { maxJumpMs: 300 })).violations).to.deep.equal([]);
  });

  it('is not applicable to a stream without PCR', async () => {
    const s = new EditableStream(cleanStream().generate);
    s.movePid(0x100, 0x1fff);
    const { result } = await runCheck(check, s.bytes);
    expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['not-applicable', 'no PCR in the stream']);
  });

  it('fails the osh sample on its 27 steps of 333 ms (a PCR every 10th frame), which 2.3b counts as jumps', async function () {
    const { violations } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts') });
    expect(violations.map((v) => `${v.type} ${v.value}`)).to.deep.equal(Array<string>(27).fill('pcr-jump 333.333333'));
  });
});
