import { expect } from 'chai';
import type { Point } from '@klvscope/core';
import { CheckTester, runCheck } from '../src/check-tester.js';
import { mpegtsPcrPtsDrift as check } from '../src/mpegts-pcr-pts-drift.js';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { CLEAN_STREAMS, withFault } from './streams.js';
import { MORE_CLEAN_STREAMS, cleanStream } from './mpegts-test-streams.js';

/** Point values by packet index. */
const valueAt = (points: Point[]): Map<number, number | null> => new Map(points.map((p) => [p.packetIndex, p.value]));

describe('mpegts-pcr-pts-drift', function () {
  this.timeout(60_000);

  new CheckTester(check).cases({ valid: [...CLEAN_STREAMS, ...MORE_CLEAN_STREAMS] });

  it("measures the generator's decoder delay: DTS at most 400 ms after arrival, PTS up to 3 frames later", async () => {
    const { result } = await runCheck(check, cleanStream());
    const { count, min, max, unit } = result.summary.value ?? {};
    // 89 video PES; a large frame is sent earlier than its 400 ms (326 ms), a B-frame reorder adds up to 100 ms.
    expect({ count, min, max, unit }).to.deep.equal({ count: 89, min: 325.765333, max: 499.962667, unit: 'ms' });
    expect(result.points[0]).to.include({ packetIndex: 2, pid: 0x100, type: 'decoder-delay', violation: false, citation: 'ISO/IEC 13818-1 2.4.2; MISB ST 1402' });
  });

  it('measures synchronous KLV, audio and asynchronous KLV with PTS on their own PIDs, and no point for KLV without PTS', async () => {
    const pidsOf = async (options: Parameters<typeof cleanStream>[0]): Promise<number[]> =>
      [...new Set((await runCheck(check, cleanStream(options))).result.points.map((p) => p.pid))].sort((a, b) => a - b);
    expect(await pidsOf({ audio: true, klv: {} })).to.deep.equal([0x100, 0x101, 0x102]);
    expect(await pidsOf({ klv: { carriage: 'async', pts: true } })).to.deep.equal([0x100, 0x102]);
    expect(await pidsOf({ klv: { carriage: 'async' } })).to.deep.equal([0x100]);
  });

  for (const [fault, shiftMs, type] of [
    ['pcr-jump-backward@2', 1000, 'pts-too-late'],
    ['pcr-jump-forward@2', -1000, 'pts-before-pcr'],
  ] as const) {
    it(`after ${fault}, finds every PES from the jump on ${Math.abs(shiftMs)} ms off its clean delay ('${type}'), and none before`, async () => {
      // The same stream without the fault: the PES and their PTS are where they were, only the PCR moved.
      const clean = valueAt((await runCheck(check, { generate: { ...withFault(fault).generate, faults: [] } })).result.points);
      const { result, violations, faults } = await runCheck(check, withFault(fault));
      const jump = faults[0].packetIndex;
      const after = result.points.filter((p) => p.packetIndex >= jump);
      expect(violations).to.deep.equal(after);
      // Two seconds of 30 fps video after the jump.
      expect(after).to.have.length(60);
      expect(after.every((p) => p.type === type && Math.abs((p.value ?? 0) - ((clean.get(p.packetIndex) ?? 0) + shiftMs)) < 1e-5)).to.be.true;
    });
  }

  it('flags PTS more than 1 s ahead: a 950 ms decoder delay puts B-frame-reordered PTS past it', async () => {
    const { violations, result } = await runCheck(check, cleanStream({ decoderDelayMs: 950 }));
    expect(violations.every((v) => v.type === 'pts-too-late' && (v.value ?? 0) > 1000)).to.be.true;
    expect([violations.length, result.summary.value?.max]).to.deep.equal([29, 1049.962667]);
  });

  it('is not applicable without any PES carrying a PTS', async () => {
    const { result } = await runCheck(check, cleanStream({ videoPts: false }));
    expect([result.summary.verdict, result.summary.reason]).to.deep.equal(['not-applicable', 'no PES with a PTS in the stream']);
  });

  it('fails kwiver_h265_tricky_klv.ts: each synchronous KLV PES arrives after its own PTS', async function () {
    const { violations, result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts') });
    // Muxed without decoder delay: the video PTS equals the PCR (0 ms); the 30 KLV PES of PID 0x0101
    // arrive up to 20.6 ms after their PTS. PID 0x0102 has no PTS; 0x0103 is never carried.
    expect([...new Set(violations.map((v) => `${v.pid} ${v.type}`))]).to.deep.equal(['257 pts-before-pcr']);
    expect([violations.length, result.summary.value?.min, result.summary.value?.max]).to.deep.equal([30, -20.634921, 0]);
  });

  it('passes the osh sample: video and KLV 600-708 ms ahead of the PCR', async function () {
    const { result } = await runCheck(check, { file: fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts') });
    const { count, min, max } = result.summary.value ?? {};
    expect([result.summary.verdict, count, min, max]).to.deep.equal(['pass', 554, 600.169205, 707.847708]);
  });
});
