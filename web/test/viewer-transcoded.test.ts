/**
 * The stream viewer in headless Chromium on a source Chromium cannot play
 * itself: kwiver's aphill sample (MPEG-2 video, 360x240, 1 frame/s, EG 0104
 * KLV), which the streaming module transcodes to H.264 with ffmpeg. The page
 * plays it and shows the metadata packet of the frame on screen.
 */
import { expect } from 'chai';
import { saveScreenshot } from '../../test-support/chromium.js';
import { until } from '../../test-support/until.js';
import { listenToStream, pauseOnFrame, probeOnceLaterKlvArrived, readVideo } from './viewer-page-driver.js';
import { transcodedFixtureSuite } from './transcoded-fixture-suite.js';

describe('the stream viewer in Chromium on MPEG-2 video, transcoded', function () {
  this.timeout(120_000);
  const suite = transcodedFixtureSuite();

  it('plays the transcoded video at the source size and shows the KLV packet of the frame on screen', async () => {
    const listener = listenToStream(suite.server.url);
    const sent = listener.messages;
    const page = await suite.chromium.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(`${suite.server.url}/`);
      // One frame a second: three frames shown take about three seconds after the first key frame.
      await page.waitForFunction('window.klvscopeViewer.framesShown >= 3 && window.klvscopeViewer.panelKlv !== null', undefined, { timeout: 60_000, polling: 200 });
      const video = await readVideo(page);
      expect([video.videoWidth, video.videoHeight]).to.deep.equal([360, 240]);
      expect(video.currentTime).to.be.greaterThan(0);
      const paused = await pauseOnFrame(page);
      const { probe, latitudeText } = await probeOnceLaterKlvArrived(page, paused.probe.lastFrame!.pts90kHz);
      await saveScreenshot(page, 'viewer-mpeg2-transcoded');
      const frame = probe.lastFrame!;
      expect(frame.mediaTime, 'the frame on screen stayed the paused one').to.equal(paused.probe.lastFrame!.mediaTime);
      // The listener has the packets up to the frame too: it gets them no later than the page.
      await until('a packet after the frame at the listener', 15_000, () => sent.some((message) => message.pts90kHz !== null && message.pts90kHz > frame.pts90kHz + 45));
      // Asynchronous KLV: the latest packet the module sent whose PTS is not after the frame's (the PTS survive the transcoding).
      const expected = sent.filter((message) => message.pts90kHz !== null && message.pts90kHz <= frame.pts90kHz + 45).at(-1);
      expect(expected, `a packet sent at or before frame ${frame.pts90kHz}`).to.not.equal(undefined);
      expect(probe.panelKlv).to.deep.equal(expected);
      expect(probe.panelKlv?.standard).to.equal('MISB EG 0104');
      expect(latitudeText).to.equal(`${expected!.values.sensorLatitudeDeg!.toFixed(6)}°`);
      expect(errors).to.deep.equal([]);
    } finally {
      listener.close();
      await page.close();
    }
  });
});

