/**
 * The stream viewer's own time display, on a transcoded source: kwiver's
 * aphill sample (MPEG-2 video, 1 frame/s, EG 0104 KLV) looped as a `file://`
 * source, which the module transcodes to H.264. A live MPEG-TS stream has no
 * duration, so a media element's own controls would read `0:00 / 0:00`; the
 * page says LIVE, the video shown since it joined, and the frame's time stamp.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../../test-support/chromium.js';
import { formatElapsed } from '../src/viewer/elapsed-format.js';
import { formatTimestampMicros } from '../src/viewer/klv-value-format.js';
import type { ViewerProbe } from '../src/viewer/viewer-probe.js';
import { transcodedFixtureSuite } from './transcoded-fixture-suite.js';

interface ClockReading {
  live: string;
  elapsed: string;
  frameTime: string;
  hasControls: boolean;
  probe: ViewerProbe;
  wallMs: number;
}

/** The display and the probe read in one go, once the page has drawn the frame the probe names. */
async function readClock(page: Page): Promise<ClockReading> {
  const handle = await page.waitForFunction(
    `(() => {
      const p = window.klvscopeViewer;
      const text = (field) => document.querySelector('.frame-clock [data-field="' + field + '"]')?.textContent ?? null;
      if (p.lastFrame === null) return false;
      const shownS = document.querySelector('.frame-clock [data-field="elapsed"]')?.getAttribute('data-elapsed-s');
      const reading = { live: text('live'), elapsed: text('elapsed'), frameTime: text('frame-time'), hasControls: document.querySelector('video').controls, probe: p, wallMs: Date.now() };
      return shownS === String(p.lastFrame.elapsedS) && JSON.stringify(reading);
    })()`,
    undefined,
    { timeout: 10_000, polling: 20 },
  );
  const reading = JSON.parse((await handle.jsonValue()) as string) as ClockReading;
  expect(reading.elapsed, 'the display writes the frame the probe names').to.equal(formatElapsed(reading.probe.lastFrame!.elapsedS));
  return reading;
}

describe('the stream viewer time display in Chromium, on a looped transcoded file', function () {
  this.timeout(150_000);
  const suite = transcodedFixtureSuite();

  it('counts the video shown since the viewer joined, runs on across the loop, and says LIVE and paused', async () => {
    const page = await suite.chromium.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(`${suite.server.url}/`);
      await page.waitForFunction('window.klvscopeViewer.framesShown >= 2 && window.klvscopeViewer.panelKlv !== null', undefined, { timeout: 60_000, polling: 200 });
      const first = await readClock(page);
      expect(first.hasControls, 'no native controls to read 0:00 / 0:00').to.equal(false);
      expect(first.live).to.equal('LIVE');
      // The count is the frame's PTS less the PTS of the viewer's first access unit (the hello's), to the millisecond.
      const frame = first.probe.lastFrame!;
      const startMs = Math.floor(first.probe.hello!.startPts90kHz! / 90);
      expect(frame.elapsedS * 1000).to.equal((frame.pts90kHz - 45) / 90 - startMs);
      expect(first.frameTime).to.equal(
        first.probe.panelKlv!.values.timestampMicros === null ? 'no time stamp' : formatTimestampMicros(first.probe.panelKlv!.values.timestampMicros).replace('T', ' '),
      );

      // Past the end of the 10 s file: the loop's wrap is no restart of the count (the module carries the clocks on).
      await page.waitForFunction('(window.klvscopeViewer.lastFrame?.elapsedS ?? 0) >= 12', undefined, { timeout: 60_000, polling: 200 });
      const later = await readClock(page);
      expect(later.probe.connections, 'one connection: no restart at the wrap').to.equal(1);
      // Live: the video shown grows as the wall clock does (1 frame/s, so within a frame and the start buffer).
      const grewS = later.probe.lastFrame!.elapsedS - frame.elapsedS;
      const wallS = (later.wallMs - first.wallMs) / 1000;
      expect(grewS, `the count grew ${grewS} s in ${wallS} s of wall time`).to.be.within(wallS - 2, wallS + 2);
      expect(later.elapsed).to.match(/^0:1\d\.\d$/);

      await page.evaluate("document.querySelector('video').pause()");
      await page.waitForFunction(`document.querySelector('.frame-clock [data-field="live"]').textContent === 'LIVE · paused'`, undefined, { timeout: 5_000 });
      // A frame already on its way to the screen may still be presented: let it settle (as pauseOnFrame does).
      await page.waitForTimeout(400);
      const timeBefore = await page.evaluate<number>("document.querySelector('video').currentTime");
      await page.waitForTimeout(2_500);
      // Paused, the media time stands, and the display names the frame Chromium reports on screen (readClock waits for
      // that agreement; at 1 frame/s Chromium may still present the next frame of the buffer once, so the frame is not fixed).
      await readClock(page);
      expect(await page.evaluate<number>("document.querySelector('video').currentTime"), 'paused: the media time stands').to.equal(timeBefore);
      await saveScreenshot(page, 'viewer-time-display-paused');
      await page.evaluate("document.querySelector('video').play()");
      await page.waitForFunction(`document.querySelector('.frame-clock [data-field="live"]').textContent === 'LIVE'`, undefined, { timeout: 5_000 });
      expect(errors).to.deep.equal([]);
    } finally {
      await page.close();
    }
  });
});
