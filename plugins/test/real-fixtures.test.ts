/**
 * The built-in checks on the real fixtures, pinned with what each result
 * means. FFmpeg's muxer drives most of it: a PCR only with some video
 * frames, tables every ~100 ms.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createKlvAwareTsDemuxer, runPipeline, type CheckResult } from '@klvscope/core';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { BUILT_IN_CHECKS } from '../src/index.js';

async function verdicts(context: Mocha.Context, name: string): Promise<Record<string, string>> {
  const bytes = readFileSync(fixtureOrSkip(context, 'real', name));
  const session = await runPipeline([bytes], { checks: BUILT_IN_CHECKS, demuxerFactory: createKlvAwareTsDemuxer, keepPoints: false });
  const summary = (c: CheckResult): string => `${c.summary.verdict} ${c.summary.violations}`;
  return Object.fromEntries(session.checks.map((c) => [c.checkId, summary(c)]));
}

describe('the built-in checks on the real fixtures', function () {
  this.timeout(60_000);

  it('osh-addons_sample-stream.ts: PCR only every 333 ms, everything else sound', async function () {
    const v = await verdicts(this, 'osh-addons_sample-stream.ts');
    // FFmpeg put a PCR on every 10th video frame (30 fps): 27 intervals of ~333 ms, each over the
    // 100 ms of ISO 13818-1 2.7.2, and each a PCR step over 100 ms, which TR 101 290 2.3b counts too.
    expect(v['mpegts-pcr-intervals']).to.equal('fail 27');
    expect(v['mpegts-pcr-monotonicity']).to.equal('fail 27');
    // Tables every ~38 ms, PTS on every PES (600-708 ms ahead of the PCR), 277 valid ST 0601 v4 packets.
    for (const id of ['mpegts-pcr-pts-drift', 'klv-timestamp-monotonicity', 'mpegts-pat-intervals', 'mpegts-pmt-intervals', 'mpegts-max-pts-intervals', 'klv-checksum-errors', 'klv-unknown-tag-errors', 'klv-mandatory-field-errors']) {
      expect(v[id], id).to.equal('pass 0');
    }
  });

  it('kwiver_h264_klv.ts: no violation anywhere (KLV without PTS, video PTS equal to the PCR)', async function () {
    const v = await verdicts(this, 'kwiver_h264_klv.ts');
    for (const [id, verdict] of Object.entries(v)) expect(verdict, id).to.match(/^(pass|not-applicable) 0$/);
  });

  it('kwiver_h265_tricky_klv.ts: the synchronous KLV arrives after its PTS', async function () {
    const v = await verdicts(this, 'kwiver_h265_tricky_klv.ts');
    // Muxed without decoder delay: the video PTS equals the PCR (0 ms), and each of the 30 PES of the
    // synchronous KLV PID 0x101 arrives 6-21 ms after its own PTS, a PTS already in the past.
    expect(v['mpegts-pcr-pts-drift']).to.equal('fail 30');
    // PID 0x103 is declared in the PMT and never carried: one TR 101 290 1.6 PID error.
    expect(v['mpegts-errors']).to.equal('fail 1');
    for (const [id, verdict] of Object.entries(v)) if (id !== 'mpegts-pcr-pts-drift' && id !== 'mpegts-errors') expect(verdict, id).to.match(/^(pass|not-applicable) 0$/);
  });

  it('kwiver_aphill_klv_10s.ts: a 1 fps cut with 1 s PCR and PTS gaps, and EG 0104 as one key warning', async function () {
    const v = await verdicts(this, 'kwiver_aphill_klv_10s.ts');
    // One video frame (and one PCR) per second: 9 PCR intervals and steps of 1 s; the video PTS
    // repeats every 1 s, over TR 101 290 2.5's 700 ms.
    expect(v['mpegts-pcr-intervals']).to.equal('fail 9');
    expect(v['mpegts-pcr-monotonicity']).to.equal('fail 9');
    expect(v['mpegts-max-pts-intervals']).to.equal('fail 9');
    // The MPEG-2 video is muxed 1.7 s ahead of its PTS, and some KLV up to 1.1 s: over the 1 s T-STD bound.
    expect(v['mpegts-pcr-pts-drift']).to.equal('fail 19');
    // Two ~0.5 s holes in the PAT and PMT cadence (over ST 1402's 250 ms): packets 1 -> 43 (538 ms,
    // timed before the first PCR by the byte rate run backwards) and 43 -> 85 (505 ms).
    expect(v['mpegts-pat-intervals']).to.equal('fail 2');
    expect(v['mpegts-pmt-intervals']).to.equal('fail 2');
    // Legacy EG 0104: 300 packets decoded, one warning verdict (not a storm of decode errors).
    expect(v['klv-universal-key-errors']).to.equal('warn 300');
    expect(v['klv-raw-decode-errors']).to.equal('pass 0');
    expect(v['klv-mandatory-field-errors']).to.equal('not-applicable 0');
  });

  it('kwiver_h264_no_klv.ts: the KLV checks are not applicable', async function () {
    const v = await verdicts(this, 'kwiver_h264_no_klv.ts');
    expect(v['klv-checksum-errors']).to.equal('not-applicable 0');
    expect(v['mpegts-pcr-intervals']).to.equal('pass 0');
  });
});
