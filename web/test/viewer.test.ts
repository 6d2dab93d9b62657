/**
 * The stream viewer in headless Chromium against the real streaming module
 * (startStreamingServer on a real socket): the page plays the video, shows
 * the metadata packet of the frame on screen, and draws every packet it got
 * on the map. Each test saves a screenshot under test-artifacts/.
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createKlvAwareTsDemuxer, type StreamKlvMessage, type StreamMessage } from '@klvscope/core';
import { startStreamingServer, type RunningStreamingServer, type StartStreamingOptions } from '@klvscope/gateway';
import { buildWeb } from '@klvscope/web/build';
import type { Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { chromiumUnavailableReason, launchChromium, saveScreenshot, type ChromiumSession } from '../../test-support/chromium.js';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import type { ViewerProbe } from '../src/viewer/viewer-probe.js';

/** How far the page's frame PTS may be from the frame's true PTS: mpegts.js keeps whole milliseconds (pts-clock.ts). */
const HALF_MS_90KHZ = 45;
const H264 = 0x1b;
const ST_0601_SENSOR_LATITUDE = 13;

interface VideoState {
  currentTime: number;
  videoWidth: number;
  videoHeight: number;
  paused: boolean;
}

/** What the fixture holds, decoded here by core, apart from the module: the video PES PTS and each metadata packet's PTS and latitude. */
interface FixtureTruth {
  videoPts90kHz: number[];
  packets: Array<{ pts90kHz: number | null; sensorLatitudeDeg: number | null }>;
}

async function decodeFixture(path: string): Promise<FixtureTruth> {
  const truth: FixtureTruth = { videoPts90kHz: [], packets: [] };
  let videoPid: number | null = null;
  const demuxer = createKlvAwareTsDemuxer(
    (observation) => {
      if (observation.kind === 'pmt') videoPid ??= observation.streams.find((stream) => stream.streamType === H264)?.pid ?? null;
      else if (observation.kind === 'pes' && observation.pid === videoPid && observation.pts90kHz !== null) truth.videoPts90kHz.push(observation.pts90kHz);
      else if (observation.kind === 'metadata-packet') {
        const latitude = observation.items.find((item) => item.tag === ST_0601_SENSOR_LATITUDE)?.value;
        truth.packets.push({ pts90kHz: observation.pts90kHz, sensorLatitudeDeg: typeof latitude === 'number' ? latitude : null });
      }
    },
    { klvFields: false },
  );
  demuxer.push(await readFile(path));
  demuxer.end();
  return truth;
}

async function readProbe(page: Page): Promise<ViewerProbe> {
  return page.evaluate<ViewerProbe>('window.klvscopeViewer');
}

async function readVideo(page: Page): Promise<VideoState> {
  return page.evaluate<VideoState>(
    "(() => { const v = document.querySelector('video'); return { currentTime: v.currentTime, videoWidth: v.videoWidth, videoHeight: v.videoHeight, paused: v.paused }; })()",
  );
}

async function panelText(page: Page, field: string): Promise<string> {
  return (await page.textContent(`.klv-panel td[data-field="${field}"]`)) ?? '';
}

/** Waits until the page has shown `frames` frames of video. */
async function waitForFrames(page: Page, frames: number): Promise<void> {
  await page.waitForFunction(`window.klvscopeViewer.framesShown >= ${frames}`, undefined, { timeout: 30_000, polling: 100 });
}

/**
 * Pauses the video and waits for the page to settle, so that the frame on
 * screen, the probe and the panel all tell of the same frame.
 */
async function pauseOnFrame(page: Page): Promise<{ probe: ViewerProbe; latitudeText: string }> {
  await page.evaluate("document.querySelector('video').pause()");
  await page.waitForTimeout(400);
  return { probe: await readProbe(page), latitudeText: await panelText(page, 'sensorLatitudeDeg') };
}

/** A second viewer over the module's socket, keeping every metadata message it is sent. */
function listenToStream(baseUrl: string): { messages: StreamKlvMessage[]; close(): void } {
  const messages: StreamKlvMessage[] = [];
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/stream`);
  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    const message = JSON.parse((data as Buffer).toString('utf8')) as StreamMessage;
    if (message.type === 'klv') messages.push(message);
  });
  return { messages, close: () => socket.close() };
}

async function startModule(config: StartStreamingOptions['config']): Promise<{ server: RunningStreamingServer; dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'klvscope-viewer-test-'));
  const server = await startStreamingServer({ dataDir, port: 0, env: {}, config: { user: 'operator', password: 'viewer-test', ...config } });
  return { server, dataDir };
}

describe('the stream viewer in Chromium', function () {
  this.timeout(90_000);
  let chromium: ChromiumSession | null = null;

  before(async function () {
    const reason = chromiumUnavailableReason();
    if (reason !== null) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    await buildWeb();
    chromium = await launchChromium({ viewport: { width: 1280, height: 1000 } });
  });

  after(async () => {
    await chromium?.close();
  });

  describe('on a fixture replayed to the module (osh-addons sample, H.264 640x480, asynchronous ST 0601)', () => {
    let fixture: string;
    let module: { server: RunningStreamingServer; dataDir: string } | null = null;

    before(async function () {
      fixture = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
      module = await startModule({ source: pathToFileURL(fixture).href });
    });

    after(async () => {
      await module?.server.close();
      if (module) await rm(module.dataDir, { recursive: true, force: true });
    });

    it('plays the video, shows the packet of the frame on screen, and draws a track point per packet', async () => {
      const truth = await decodeFixture(fixture);
      const page = await (chromium as ChromiumSession).newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${module!.server.url}/`);
      await waitForFrames(page, 20);
      const before = await readVideo(page);
      await page.waitForTimeout(1000);
      const after = await readVideo(page);
      expect(after.currentTime - before.currentTime, 'currentTime advances about a second a second').to.be.within(0.5, 1.5);
      expect([after.videoWidth, after.videoHeight]).to.deep.equal([640, 480]);

      const { probe, latitudeText } = await pauseOnFrame(page);
      await saveScreenshot(page, 'viewer-fixture');
      expect(probe.connections, 'one connection: the file did not loop during the test').to.equal(1);
      const frame = probe.lastFrame!;
      // The media time maps to the PTS of a real frame of the file (to the millisecond mpegts.js keeps).
      const truePts = truth.videoPts90kHz.find((pts) => Math.abs(pts - frame.pts90kHz) <= HALF_MS_90KHZ);
      expect(truePts, `frame PTS ${frame.pts90kHz} is one of the file's`).to.be.a('number');
      // Asynchronous KLV: the latest packet whose PTS is not after the frame's.
      const expected = truth.packets.filter((packet) => packet.pts90kHz !== null && packet.pts90kHz <= truePts!).at(-1)!;
      expect(probe.panelKlv?.pts90kHz).to.equal(expected.pts90kHz);
      expect(probe.panelKlv?.values.sensorLatitudeDeg).to.equal(expected.sensorLatitudeDeg);
      expect(latitudeText).to.equal(`${expected.sensorLatitudeDeg!.toFixed(6)}°`);

      // One point per packet the page received: the file's packets between the first and the latest it got.
      const received = truth.packets.filter((packet) => packet.pts90kHz! >= probe.firstKlvPts90kHz! && packet.pts90kHz! <= probe.lastKlvPts90kHz!);
      expect(probe.klvReceived).to.equal(received.length);
      expect(probe.trackPointCount).to.equal(received.length);
      expect(probe.frameCentrePointCount).to.equal(received.length);
      expect(errors).to.deep.equal([]);
      await page.close();
    });

    it('shows the reason when the module refuses a viewer past its limit', async () => {
      const limited = await startModule({ source: pathToFileURL(fixture).href, concurrentClients: 1 });
      const other = listenToStream(limited.server.url);
      try {
        await new Promise((resolve) => setTimeout(resolve, 300));
        const page = await (chromium as ChromiumSession).newPage();
        await page.goto(`${limited.server.url}/`);
        await page.waitForFunction('window.klvscopeViewer.closed !== null', undefined, { timeout: 10_000 });
        const probe = await readProbe(page);
        expect(probe.closed?.code).to.equal(1013);
        const notice = await page.textContent('.video-notice');
        expect(notice).to.contain(probe.closed!.reason);
        expect(notice).to.match(/refused this viewer/);
        await saveScreenshot(page, 'viewer-refused');
        await page.close();
      } finally {
        other.close();
        await limited.server.close();
        await rm(limited.dataDir, { recursive: true, force: true });
      }
    });

    it('asks for a user and password for a recorder command and shows the answer', async () => {
      const page = await (chromium as ChromiumSession).newPage();
      await page.goto(`${module!.server.url}/`);
      await page.click('text=Start recording');
      await page.fill('.credentials input[name=user]', 'operator');
      await page.fill('.credentials input[name=password]', 'wrong');
      await page.click('.credentials button[type=submit]');
      await page.waitForSelector('.command-error');
      expect(await page.textContent('.command-error')).to.match(/refused/);
      // The form stays for another try.
      await page.fill('.credentials input[name=password]', 'viewer-test');
      await page.click('.credentials button[type=submit]');
      await page.waitForSelector('.command-ok, .command-error:not(:has-text("password"))');
      const answer = await page.textContent('.recorder-controls p');
      await saveScreenshot(page, 'viewer-recorder-command');
      const recorder = (await (await fetch(`${module!.server.url}/recorderState`)).json()) as { state: string };
      expect(answer).to.contain(recorder.state === 'running' ? 'recorder start: running' : 'recorder start');
      await page.close();
    });
  });

  describe('on the built-in demo', () => {
    let module: { server: RunningStreamingServer; dataDir: string } | null = null;

    before(async function () {
      module = await startModule({ source: null });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const info = (await (await fetch(`${module.server.url}/info`)).json()) as { source: { state: string; message: string | null } };
      if (info.source.state === 'failed') {
        console.log(`      skipped: the module has no built-in demo source yet (${info.source.message ?? 'failed'})`);
        this.skip();
      }
    });

    after(async () => {
      await module?.server.close();
      if (module) await rm(module.dataDir, { recursive: true, force: true });
    });

    it('plays the demo and shows the synchronous packet whose PTS is the frame on screen', async () => {
      const listener = listenToStream(module!.server.url);
      const page = await (chromium as ChromiumSession).newPage();
      try {
        await page.goto(`${module!.server.url}/`);
        await waitForFrames(page, 30);
        const before = await readVideo(page);
        await page.waitForTimeout(1000);
        const after = await readVideo(page);
        expect(after.currentTime - before.currentTime).to.be.within(0.5, 1.5);
        const resolution = ((await (await fetch(`${module!.server.url}/info`)).json()) as { videoResolution: string }).videoResolution;
        if (resolution !== '') expect(`${after.videoWidth}x${after.videoHeight}`).to.equal(resolution);
        expect(after.videoWidth).to.be.greaterThan(0);

        const { probe, latitudeText } = await pauseOnFrame(page);
        await saveScreenshot(page, 'viewer-demo');
        const frame = probe.lastFrame!;
        expect(frame.exact, 'a synchronous packet of that very frame').to.be.true;
        // What the module sent (to a second viewer) for that frame: the packet with the frame's PTS.
        const sent = listener.messages.find((message) => message.pts90kHz !== null && Math.abs(message.pts90kHz - frame.pts90kHz) <= HALF_MS_90KHZ);
        expect(sent, `a packet sent with the PTS of frame ${frame.pts90kHz}`).to.not.equal(undefined);
        expect(probe.panelKlv).to.deep.equal(sent);
        expect(latitudeText).to.equal(`${sent!.values.sensorLatitudeDeg!.toFixed(6)}°`);
        expect(probe.trackPointCount).to.equal(probe.klvReceived);
      } finally {
        listener.close();
        await page.close();
      }
    });
  });
});
