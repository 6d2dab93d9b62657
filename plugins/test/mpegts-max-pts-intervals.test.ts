import { expect } from 'chai';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { mpegtsMaxPtsIntervals as check } from '../src/mpegts-max-pts-intervals.js';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CLEAN_STREAMS, withFault } from './streams.js';
import { MORE_CLEAN_STREAMS, cleanStream } from './mpegts-test-streams.js';

describe('mpegts-max-pts-intervals', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: [...CLEAN_STREAMS, ...MORE_CLEAN_STREAMS],
    invalid: [
      { name: 'pts-gap@2', input: withFault('pts-gap@2'), violations: 'ground-truth' },
      { name: 'pts-gap@1 with sync KLV', input: withFault('pts-gap@1', 'sync'), violations: 'ground-truth' },
    ],
  });

  it('measures each PES PID apart: video, audio and KLV with PTS', async () => {
    const { result } = await runCheck(check, cleanStream({ audio: true, klv: {} }));
    const pids = [...new Set(result.points.map((p) => p.pid))].sort((a, b) => a - b);
    expect(pids).to.deep.equal([0x100, 0x101, 0x102]);
    const { count, min, max } = result.summary.value ?? {};
    // Video frames come in decode order as the link lets them (an I-frame takes 100 ms); audio frames every 21.3 ms.
    expect([count, min, max]).to.deep.equal([317, 15.04, 100.768]);
  });

  it('leaves out a KLV PID whose PES carry no PTS', async () => {
    const { result } = await runCheck(check, cleanStream({ klv: { carriage: 'async' } }));
    expect([...new Set(result.points.map((p) => p.pid))]).to.deep.equal([0x100]);
  });

  it('reports a 1 s stretch of video PES without PTS at the first PES with a PTS after it', async () => {
    const { violations, faults } = await runCheck(check, withFault('pts-gap@2'));
    expect(violations.map((v) => [v.packetIndex, v.pid, v.value, v.type, v.citation, v.message])).to.deep.equal([
      [
        faults[0].packetIndex,
        0x100,
        1112.458667,
        'pts-interval',
        'ETSI TR 101 290 5.2.2 2.5; ISO/IEC 13818-1 2.7.4',
        'PTS on PID 0x0100 1112.459 ms after the previous one, more than 700 ms',
      ],
    ]);
  });

  it('is not applicable without any PES carrying a PTS', async () => {
    const { result } = await runCheck(check, cleanStream({ videoPts: false }));
    expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['not-applicable', 'no PES with a PTS in the stream']);
  });

  it('fails the aphill cut on its 1 fps video: 9 PTS intervals of 1 s on PID 0x0100', async function () {
    const { violations } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts') });
    expect(violations.map((v) => `${v.pid} ${v.value}`)).to.deep.equal(Array<string>(9).fill('256 1000'));
  });
});
