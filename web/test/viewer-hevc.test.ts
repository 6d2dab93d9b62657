/**
 * The stream viewer in headless Chromium on HEVC clips made here with ffmpeg
 * (libx265: Rext `gbrp` and `yuv444p`, Main 10; with and without ST 0601
 * KLV), each one second long and looped by the streaming module: Chromium
 * cannot play HEVC, so the module transcodes it, and the picture must keep
 * moving across the loop's wraps.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startStreamingServer } from '@klvscope/gateway';
import { saveScreenshot } from '../../test-support/chromium.js';
import { childProcessesNamed } from '../../test-support/child-processes.js';
import { makeClip } from '../../test-support/ffmpeg-clips.js';
import { readProbe, readVideo } from './viewer-page-driver.js';
import { viewerClipSuite } from './viewer-clip-suite.js';

const VARIANTS = [
  { pixelFormat: 'gbrp', klv: true },
  { pixelFormat: 'gbrp', klv: false },
  { pixelFormat: 'yuv444p', klv: true },
  { pixelFormat: 'yuv420p10le', klv: true },
  { pixelFormat: 'yuv420p10le', klv: false },
];

describe('the stream viewer in Chromium on looped 1 s HEVC clips, transcoded', function () {
  this.timeout(180_000);
  const suite = viewerClipSuite('klvscope-viewer-hevc-');

  for (const { pixelFormat, klv } of VARIANTS) {
    it(`keeps the picture of a ${pixelFormat} clip ${klv ? 'with' : 'without'} KLV moving past three wraps, with no notice`, async () => {
      const name = `hevc-${pixelFormat}-${klv ? 'klv' : 'no-klv'}`;
      const clip = makeClip(suite.ffmpeg, suite.dir, name, { codec: 'hevc', pixelFormat, seconds: 1, klv });
      const server = await startStreamingServer({ dataDir: join(suite.dir, `${name}-data`), port: 0, env: {}, config: { source: pathToFileURL(clip).href } });
      const page = await suite.chromium.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(`${server.url}/`);
        // 25 frames a pass: 90 frames shown are past the third wrap.
        await page.waitForFunction('window.klvscopeViewer.framesShown >= 90', undefined, { timeout: 30_000, polling: 200 });
        const video = await readVideo(page);
        expect([video.videoWidth, video.videoHeight]).to.deep.equal([160, 120]);
        const probe = await readProbe(page);
        expect(probe.connections, 'one connection: no start over at a wrap').to.equal(1);
        expect(video.currentTime - (probe.firstFrameMediaTime ?? 0), 'played past the third wrap').to.be.greaterThan(3.2);
        await page.waitForTimeout(1_000);
        expect((await readVideo(page)).currentTime - video.currentTime, 'still playing a second later').to.be.greaterThan(0.5);
        if (klv) expect(probe.klvReceived).to.be.greaterThan(60);
        expect(await page.$('.video-notice')).to.equal(null);
        const info = (await (await fetch(`${server.url}/info`)).json()) as Record<string, unknown>;
        expect(info).to.deep.include({ videoCodec: 'HEVC', videoPassThrough: false, noPictureReason: null, videoResolution: '160x120', noKlv: !klv });
        if (pixelFormat === 'gbrp' && klv) await saveScreenshot(page, 'viewer-hevc-gbrp-looped');
        expect(errors).to.deep.equal([]);
      } finally {
        await page.close();
        await server.close();
      }
    });
  }

  it('shows over the picture that the transcoder stalled, and takes the notice away when it sends again', async () => {
    const clip = makeClip(suite.ffmpeg, suite.dir, 'hevc-stall', { codec: 'hevc', pixelFormat: 'gbrp', seconds: 2, klv: true });
    const server = await startStreamingServer({ dataDir: join(suite.dir, 'stall-data'), port: 0, env: {}, config: { source: pathToFileURL(clip).href, transcoderStallMs: 1_000 } });
    const page = await suite.chromium.newPage();
    let stopped: number | null = null;
    try {
      await page.goto(`${server.url}/`);
      await page.waitForFunction('window.klvscopeViewer.framesShown >= 10', undefined, { timeout: 30_000, polling: 200 });
      [stopped] = childProcessesNamed('ffmpeg');
      process.kill(stopped, 'SIGSTOP');
      const notice = await page.waitForSelector('.video-notice', { timeout: 10_000 });
      expect(await notice.textContent()).to.match(/^No picture: the transcoder \(ffmpeg\) has sent nothing for \d+\.\d s while the source sends: it stalled$/);
      await saveScreenshot(page, 'viewer-hevc-transcoder-stalled');
      process.kill(stopped, 'SIGCONT');
      stopped = null;
      await page.waitForSelector('.video-notice', { state: 'detached', timeout: 10_000 });
    } finally {
      if (stopped !== null) process.kill(stopped, 'SIGCONT');
      await page.close();
      await server.close();
    }
  });
});
