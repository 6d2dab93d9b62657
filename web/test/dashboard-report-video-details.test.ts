/**
 * The report's video details panel in headless Chromium, against a real
 * inspection service: on a clip made with ffmpeg (H.264 with B pictures and
 * KLV) and on the real MPEG-2 fixture, each row shows what the REST
 * report's `video` holds, which matches ffprobe's figures for the files
 * (core/test/ts/video-details.test.ts compares them).
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../../test-support/chromium.js';
import { findFfmpeg } from '@klvscope/adapters';
import { makeClip } from '../../test-support/ffmpeg-clips.js';
import { fixturePath } from '../../test-support/fixtures.js';
import { openSignedIn } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';

interface RestVideo {
  pid: number;
  codec: string;
  width: number;
  height: number;
  chromaFormat: string | null;
  pictures: number;
  frameTypes: { I: number; P: number; B: number };
  gop: { pattern: string | null };
}

/** The rows as the page shows them. */
async function shownRows(page: Page): Promise<Array<{ pid: number; codec: string; size: string; counts: string[]; pattern: string; profileLevel: string; frameRate: string; gop: string }>> {
  return page.evaluate(`[...document.querySelectorAll('.video-details tr.video-stream')].map((row) => ({
    pid: Number(row.dataset.pid),
    codec: row.querySelector('.codec').textContent,
    size: row.querySelector('.size').textContent,
    counts: ['.pictures', '.frames-i', '.frames-p', '.frames-b'].map((cell) => row.querySelector(cell).textContent),
    pattern: row.querySelector('.gop-pattern').textContent,
    profileLevel: row.querySelector('.profile-level').textContent,
    frameRate: row.querySelector('.frame-rate').textContent,
    gop: row.querySelector('.gop').textContent,
  }))`);
}

async function restVideoOf(suite: ReturnType<typeof dashboardSuite>, filePath: string): Promise<RestVideo[]> {
  return (await suite.service.api<{ report: { video: RestVideo[] } }>('POST', '/automation/file-session/inspect', { filePath })).report.video;
}

describe('the dashboard report video details (headless Chromium)', function () {
  this.timeout(180_000);
  let clipPath: string | null = null;
  let mpeg2ClipPath: string | null = null;
  const realDir = fixturePath('real');
  const mpeg2Path = join(realDir, 'kwiver_aphill_klv_10s.ts');
  const suite = dashboardSuite(
    (recordings) => {
      const ffmpeg = findFfmpeg();
      if (ffmpeg !== null) clipPath = makeClip(ffmpeg, recordings.root, 'h264-b-frames', { codec: 'h264', seconds: 3, size: '320x240', rate: 25, keyFrameSeconds: 12 / 25, bFrames: 2, klv: true });
      if (ffmpeg !== null) mpeg2ClipPath = makeClip(ffmpeg, recordings.root, 'mpeg2-422', { codec: 'mpeg2', pixelFormat: 'yuv422p', seconds: 1, size: '320x240', klv: true });
      return { moreBrowseRoots: existsSync(realDir) ? [realDir] : [] };
    },
    { width: 1440, height: 900 },
  );

  it('shows an H.264 clip with B pictures as the REST report has it: High level 1.3, 320×240, 25 fps, closed GOPs of 12 IBBPBBPBBPBP', async function () {
    if (clipPath === null) {
      console.log('      skipped: no ffmpeg on the PATH (apt-get install ffmpeg)');
      this.skip();
    }
    const rest = await restVideoOf(suite, clipPath);
    expect(rest).to.have.length(1);
    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file: clipPath }).toString()}`);
    await page.waitForSelector('.video-details tr.video-stream');
    const [row] = await shownRows(page);
    const video = rest[0];
    expect(row).to.deep.equal({
      pid: video.pid,
      codec: 'H.264',
      size: `${video.width}×${video.height} 4:2:0`,
      counts: [video.pictures, video.frameTypes.I, video.frameTypes.P, video.frameTypes.B].map(String),
      pattern: video.gop.pattern,
      profileLevel: 'High, level 1.3',
      frameRate: '25 fps declared, 25 fps measured',
      gop: '12 pictures, closed',
    });
    expect(video.frameTypes.B).to.be.greaterThan(0);
    expect(video.gop.pattern).to.equal('IBBPBBPBBPBP');
    await page.locator('.video-details').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'dashboard-report-video-details-1440');
    await page.setViewportSize({ width: 1024, height: 800 });
    // At 1024 px the table fits its panel: nothing cut at the right edge.
    await saveScreenshot(page, 'dashboard-report-video-details-1024');
    // At 1024 px every table of the report fits inside its panel (within the 1 px a collapsed border may stand out): no column is cut or hidden past the edge.
    const overflowing = await page.evaluate(`[...document.querySelectorAll('.report-page table.data')].filter((table) => {
      const panel = table.closest('.panel');
      const style = getComputedStyle(panel);
      return table.getBoundingClientRect().right > panel.getBoundingClientRect().right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth) + 2;
    }).map((table) => table.className + ' by ' + Math.round(table.getBoundingClientRect().right - table.closest('.panel').getBoundingClientRect().right) + ' px')`);
    expect(overflowing, 'tables wider than their panel at 1024 px').to.deep.equal([]);
    await page.close();
  });

  it('shows the real MPEG-2 recording as Main profile at Main level, 360×240, 1 fps, 1 I and 9 P pictures', async function () {
    if (!existsSync(mpeg2Path)) {
      console.log(`      skipped: fixture ${mpeg2Path} absent (see ../shared/fixtures/MANIFEST.md)`);
      this.skip();
    }
    const rest = await restVideoOf(suite, mpeg2Path);
    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file: mpeg2Path }).toString()}`);
    await page.waitForSelector('.video-details tr.video-stream');
    const [row] = await shownRows(page);
    expect(row).to.deep.include({ pid: 0x100, codec: 'MPEG-2', size: '360×240 4:2:0', counts: ['10', '1', '9', '0'], profileLevel: 'Main profile, Main level', frameRate: '1 fps declared, 1 fps measured', gop: 'one group of 10 pictures, closed' });
    expect(row.counts).to.deep.equal([rest[0].pictures, rest[0].frameTypes.I, rest[0].frameTypes.P, rest[0].frameTypes.B].map(String));
    await page.close();
  });

  it('shows the chroma format of an MPEG-2 clip from its sequence_extension: 4:2:2 from ffmpeg -pix_fmt yuv422p', async function () {
    if (mpeg2ClipPath === null) {
      console.log('      skipped: no ffmpeg on the PATH (apt-get install ffmpeg)');
      this.skip();
    }
    const rest = await restVideoOf(suite, mpeg2ClipPath);
    expect(rest).to.have.length(1);
    expect(rest[0]).to.deep.include({ codec: 'MPEG-2', chromaFormat: '4:2:2' });
    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file: mpeg2ClipPath }).toString()}`);
    await page.waitForSelector('.video-details tr.video-stream');
    const [row] = await shownRows(page);
    expect(row).to.deep.include({ codec: 'MPEG-2', size: '320×240 4:2:2', profileLevel: '4:2:2 profile, Main level' });
    await page.locator('.video-details').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'dashboard-report-video-details-mpeg2-422-1440');
    await page.close();
  });
});
