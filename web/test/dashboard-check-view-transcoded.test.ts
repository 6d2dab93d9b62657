/**
 * The dashboard's check page in headless Chromium on a recording Chromium
 * cannot play itself: kwiver's aphill sample (MPEG-2 video, 360x240, 1
 * frame/s, EG 0104 KLV). The page asks the inspection service for the H.264
 * variant (ffmpeg), shows the progress while it is made, then plays it; a
 * selected violation pauses it on a frame of the file.
 */
import { expect } from 'chai';
import { dirname } from 'node:path';
import { findFfmpeg } from '@klvscope/adapters';
import type { Page } from 'playwright-core';
import { chromiumUnavailableReason, launchChromium, saveScreenshot, type ChromiumSession } from '../../test-support/chromium.js';
import { fixturePath, fixtureOrSkip } from '../../test-support/fixtures.js';
import type { CheckViewProbe } from '../src/dashboard/check-view/check-view-probe.js';
import { openSignedIn, startDashboardService, type DashboardService } from './dashboard-page-driver.js';

interface Detail {
  ingestRunId: string;
  points: Array<{ t: number | null; violation: boolean }>;
}

interface Rows<T> {
  rows: T[];
}

/** Checks with a point in time on most recordings: the first whose detail has a placed violation is the one shown. */
const CANDIDATE_CHECKS = ['mpegts-pcr-intervals', 'klv-packet-rate-consistency', 'mpegts-pat-intervals', 'mpegts-pmt-intervals', 'klv-timestamp-monotonicity', 'mpegts-pcr-pts-drift'];
/** aphill: 1 frame/s. */
const FRAME_PERIOD_90KHZ = 90_000;
const probeOf = (page: Page) => page.evaluate<CheckViewProbe>('window.klvscopeCheckView');

describe('the dashboard check page on MPEG-2 video, transcoded (headless Chromium, ffmpeg)', function () {
  this.timeout(120_000);
  let session: ChromiumSession | null = null;
  let service: DashboardService | null = null;
  let fixture: string;

  before(async function () {
    const reason = chromiumUnavailableReason() ?? (findFfmpeg() === null ? 'no ffmpeg on the PATH (apt-get install ffmpeg)' : null);
    if (reason !== null) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    fixture = fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts');
    service = await startDashboardService({ browseRoots: [dirname(fixturePath('real', 'x'))] });
    session = await launchChromium({ viewport: { width: 1280, height: 1400 } });
  });

  after(async () => {
    await session?.close();
    await service?.close();
  });

  it('plays the H.264 variant at the source size and seeks a selected violation to a frame of the file', async () => {
    let checkId: string | null = null;
    let detail: Detail | null = null;
    for (const candidate of CANDIDATE_CHECKS) {
      const answer = await service!.api<Detail>('GET', `/analysis/file/${candidate}?filePath=${encodeURIComponent(fixture)}&limit=100000`);
      if (answer.points.some((point) => point.violation && point.t !== null)) {
        [checkId, detail] = [candidate, answer];
        break;
      }
    }
    expect(checkId, `one of ${CANDIDATE_CHECKS.join(', ')} has a violation on aphill`).not.to.equal(null);
    const run = `/automation/ingest-runs/${detail!.ingestRunId}`;
    const pes = await service!.api<Rows<{ pid: number; pts90kHz: number | null }>>('GET', `${run}/mpegts/pes-timestamps?limit=100000`);
    const firstPcr = (await service!.api<Rows<{ pcr27MHz: number }>>('GET', `${run}/mpegts/pcr-values?limit=1`)).rows[0].pcr27MHz;

    const page = await openSignedIn(session!, service!, `#/check?${new URLSearchParams({ file: fixture, check: checkId! }).toString()}`);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.waitForFunction('window.klvscopeCheckView?.frame != null && window.klvscopeCheckView.framesShown >= 1', undefined, { timeout: 30_000, polling: 100 }).catch(async (error: unknown) => {
      await saveScreenshot(page, 'dashboard-check-mpeg2-transcoded-stuck');
      throw new Error(`${String(error)}; page probe: ${JSON.stringify(await probeOf(page))}; text: ${await page.textContent('.recording-playback')}`);
    });
    const playing = await probeOf(page);
    expect(playing.videoNotice).to.equal(null);
    expect(playing.videoUrl).to.match(/\/api\/v1\/playback\/[A-Za-z0-9_-]{43}\?video=h264$/);
    expect(playing.transcodingProgress.length, 'the progress was shown while ffmpeg ran').to.be.greaterThan(0);
    const size = await page.evaluate<number[]>("(() => { const v = document.querySelector('video'); return [v.videoWidth, v.videoHeight]; })()");
    expect(size).to.deep.equal([360, 240]);

    // A violation well after the first frame (1.7 s), so the seek moves the picture.
    const placed = detail!.points.filter((point) => point.violation && point.t !== null);
    const row = placed.findIndex((point) => point.t! >= playing.frame!.streamTimeS + 2);
    expect(row).to.be.greaterThan(-1);
    const violation = placed[row];
    await page.click(`.violation-list tbody tr:nth-child(${row + 1})`);
    await page.waitForFunction(
      `(() => { const p = window.klvscopeCheckView; const v = document.querySelector('video'); return p.seeks === 1 && v.paused && !v.seeking && p.frame !== null && Math.abs(p.frame.streamTimeS - ${violation.t}) <= 1; })()`,
      undefined,
      { timeout: 30_000 },
    );
    await page.waitForTimeout(300);
    const probe = await probeOf(page);
    const frame = probe.frame!;
    // The frame on screen is one the file has (its PTS within a frame period of one of the file's video PTS)...
    const videoPid = pes.rows.find((row) => row.pts90kHz !== null && pes.rows.filter((r) => r.pid === row.pid).length > 5)!.pid;
    const videoPts = pes.rows.filter((row) => row.pid === videoPid && row.pts90kHz !== null).map((row) => row.pts90kHz as number);
    const nearest = videoPts.reduce((best, pts) => (Math.abs(pts - frame.pts90kHz) < Math.abs(best - frame.pts90kHz) ? pts : best));
    expect(Math.abs(nearest - frame.pts90kHz)).to.be.lessThan(FRAME_PERIOD_90KHZ);
    // ...the one presented at the violation's stream time (the latest presented by then).
    const presentedAtS = (nearest - Math.floor(firstPcr / 300)) / 90_000;
    expect(Math.abs(presentedAtS - violation.t!)).to.be.at.most(FRAME_PERIOD_90KHZ / 90_000);
    expect(Math.abs(probe.cursorTimeS! - violation.t!)).to.be.at.most(FRAME_PERIOD_90KHZ / 90_000);
    expect(frame.klvPts90kHz).not.to.equal(null);
    expect(errors).to.deep.equal([]);
    await saveScreenshot(page, 'dashboard-check-mpeg2-transcoded');
    await page.close();
  });
});
