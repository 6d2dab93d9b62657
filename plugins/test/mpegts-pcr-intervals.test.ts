import { expect } from 'chai';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { mpegtsPcrIntervals as check } from '../src/mpegts-pcr-intervals.js';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CLEAN_STREAMS, withFault } from './streams.js';
import { EditableStream, MORE_CLEAN_STREAMS, cleanStream } from './mpegts-test-streams.js';

describe('mpegts-pcr-intervals', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: [
      ...CLEAN_STREAMS,
      ...MORE_CLEAN_STREAMS,
      // Arrival intervals: a PCR whose value jumps still comes 39.6 ms after the previous one.
      { name: 'a forward PCR jump is a step, not a long interval', input: withFault('pcr-jump-forward@2') },
      { name: 'a backward PCR jump is a step, not a long interval', input: withFault('pcr-jump-backward@2') },
    ],
    invalid: [{ name: 'pcr-gap@2', input: withFault('pcr-gap@2'), violations: 'ground-truth' }],
  });

  it("measures every interval of a clean stream: 75 of 39.605333 ms (79 packet slots at 3 Mb/s, the generator's at most 40 ms)", async () => {
    const { result } = await runCheck(check, cleanStream());
    const { count, min, max, unit } = result.summary.value ?? {};
    expect({ count, min, max, unit }).to.deep.equal({ count: 75, min: 39.605333, max: 39.605333, unit: 'ms' });
    expect(result.points[0]).to.include({ type: 'pcr-interval', pid: 0x100, violation: false, severity: 'info', message: 'PCR on PID 0x0100' });
  });

  it('reports a 200 ms PCR gap at the first PCR after it, valued by the time since the previous PCR', async () => {
    const { violations, faults } = await runCheck(check, withFault('pcr-gap@2'));
    expect(violations.map((v) => [v.packetIndex, v.pid, v.value, v.unit, v.severity, v.type, v.citation, v.message])).to.deep.equal([
      [
        faults[0].packetIndex,
        0x100,
        237.632,
        'ms',
        'error',
        'pcr-interval',
        'ISO/IEC 13818-1 2.7.2; MISB ST 1402',
        'PCR on PID 0x0100 237.632 ms after the previous one, more than 100 ms',
      ],
    ]);
  });

  it("passes the generator's 39.6 ms under TR 101 290 2.3a's 40 ms, and fails it under 39 ms", async () => {
    expect((await runCheck(check, cleanStream(), { maxIntervalMs: 40 })).violations).to.have.length(0);
    expect((await runCheck(check, cleanStream(), { maxIntervalMs: 39 })).violations).to.have.length(75);
  });

  it('is not applicable to a stream without PCR', async () => {
    const s = new EditableStream(cleanStream().generate);
    s.movePid(0x100, 0x1fff);
    const { result } = await runCheck(check, s.bytes);
    expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['not-applicable', 'no PCR in the stream']);
  });

  it('fails the osh sample: FFmpeg put a PCR on every 10th frame, 27 intervals of 333 ms', async function () {
    const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts') });
    const { count, min, max } = result.summary.value ?? {};
    expect([result.summary.verdict, result.summary.violations, count, min, max]).to.deep.equal(['fail', 27, 27, 333.333333, 333.333333]);
  });
});
