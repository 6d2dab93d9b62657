import { expect } from 'chai';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { mpegtsPsiTablePositions as check } from '../src/mpegts-psi-table-positions.js';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CLEAN_STREAMS, withFault } from './streams.js';
import { EditableStream, MORE_CLEAN_STREAMS, cleanStream } from './mpegts-test-streams.js';

describe('mpegts-psi-table-positions', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({
    valid: [...CLEAN_STREAMS, ...MORE_CLEAN_STREAMS, { name: 'informational: even a 1 s PAT gap is no violation', input: withFault('pat-gap@2') }],
  });

  it("places every PAT and PMT section, typed 'PAT' or 'PMT', with the interval since the previous one of its table", async () => {
    const { result } = await runCheck(check, cleanStream());
    const pats = result.points.filter((p) => p.type === 'PAT');
    const pmts = result.points.filter((p) => p.type === 'PMT');
    // 3 s with both tables every 100 ms from t = 0 (the carousel in whole packet slots: 98.762667 ms at 3 Mb/s).
    expect([pats.length, pmts.length]).to.deep.equal([31, 31]);
    expect([pats[0].packetIndex, pmts[0].packetIndex, pats[1].packetIndex]).to.deep.equal([0, 1, 197]);
    // Only the first of each has no interval; the second is timed back from the first PCR (packet 2).
    expect(pats.map((p) => p.value)).to.deep.equal([null, ...Array<number>(30).fill(98.762667)]);
    expect(pmts.map((p) => p.value)).to.deep.equal([null, ...Array<number>(30).fill(98.762667)]);
    expect(pmts.every((p) => p.pid === 0x1000 && p.citation === 'ISO/IEC 13818-1 2.4.4.8')).to.be.true;
    expect(pats.every((p) => p.pid === 0 && p.citation === 'ISO/IEC 13818-1 2.4.4.3')).to.be.true;
    expect([pats[0].message, pats[1].message]).to.deep.equal([
      'PAT section on PID 0x0000, the first',
      'PAT section on PID 0x0000',
    ]);
    expect(result.summary.verdict).to.equal('pass');
  });

  it('shows a PAT gap as a long interval at the first PAT after it, without a violation', async () => {
    const { result, faults } = await runCheck(check, withFault('pat-gap@2'));
    const after = result.points.find((p) => p.packetIndex === faults[0].packetIndex);
    expect([after?.type, after?.value, after?.violation]).to.deep.equal(['PAT', 1086.389333, false]);
  });

  it('is not applicable without PAT (so without PMT either)', async () => {
    const s = new EditableStream(cleanStream().generate);
    s.movePid(0, 0x1fff);
    const { result } = await runCheck(check, s.bytes);
    expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['not-applicable', 'no PAT or PMT section in the stream']);
  });

  it('places the osh sample\'s 298 PATs and 298 PMTs, FFmpeg repeating them every 38 ms or less', async function () {
    const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts') });
    const { count, min, max } = result.summary.value ?? {};
    // 596 sections, the first of each table without an interval; sometimes a repeat comes 2 ms after the last.
    expect([result.summary.points, count, min, max, result.summary.violations]).to.deep.equal([596, 594, 2.136752, 38.324421, 0]);
  });
});
