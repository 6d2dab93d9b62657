/**
 * The stream viewer in headless Chromium marks a packet that lacks a
 * mandatory ST 0601 item: an ffmpeg H.264 clip whose KLV (core's generator)
 * leaves item 65 out of a packet every fifth of a second, looped by the
 * streaming module; the panel names the missing item in its red mark, and
 * says all are present for the packets that have them.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startStreamingServer } from '@klvscope/gateway';
import { saveScreenshot } from '../../test-support/chromium.js';
import { makeClip } from '../../test-support/ffmpeg-clips.js';
import { viewerClipSuite } from './viewer-clip-suite.js';

const MANDATORY = '.klv-panel [data-field="mandatory"]';

describe('the stream viewer in Chromium: a missing mandatory ST 0601 item', function () {
  this.timeout(120_000);
  const suite = viewerClipSuite('klvscope-viewer-mandatory-');

  it('marks the packets without item 65 in red, naming it, and the others as complete', async () => {
    const faults = Array.from({ length: 15 }, (_, i) => `klv-missing-version@${(0.1 + i * 0.2).toFixed(1)}`);
    const clip = makeClip(suite.ffmpeg, suite.dir, 'missing-65', { codec: 'h264', seconds: 3, klv: true, klvFaults: faults });
    const server = await startStreamingServer({ dataDir: join(suite.dir, 'data'), port: 0, env: {}, config: { source: pathToFileURL(clip).href } });
    const page = await suite.chromium.newPage();
    try {
      await page.goto(`${server.url}/`);
      // Read in the page the moment the mark shows: the panel follows the frames, and the next packet has item 65.
      const marked = await page.waitForFunction(
        `(() => { const p = document.querySelector('${MANDATORY}'); return p?.classList.contains('klv-mandatory-missing') ? { text: p.textContent, background: getComputedStyle(p).backgroundColor } : null; })()`,
        undefined,
        { timeout: 30_000, polling: 'raf' },
      );
      expect(await marked.jsonValue()).to.deep.equal({ text: 'Missing mandatory items: UAS Datalink LS Version Number (tag 65)', background: 'rgb(176, 58, 46)' });
      await saveScreenshot(page, 'viewer-missing-mandatory');
      // Read with the mark's absence, in one go: a packet without item 65 comes every fifth of a second, and a
      // second read could see the next one (CI did).
      const complete = await page.waitForFunction(
        `(() => { const p = document.querySelector('${MANDATORY}'); return p && !p.classList.contains('klv-mandatory-missing') ? p.textContent : null; })()`,
        undefined,
        { timeout: 10_000, polling: 'raf' },
      );
      expect(await complete.jsonValue()).to.equal('Mandatory items (tags 1, 2, 65) all present');
    } finally {
      await page.close();
      await server.close();
    }
  });
});
