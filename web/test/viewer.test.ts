/**
 * The stream viewer in headless Chromium against the real streaming module
 * (startStreamingServer on a real socket): the page plays the video, shows
 * the metadata packet of the frame on screen, and draws every packet it got
 * on the map. Each test saves a screenshot under test-artifacts/.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createKlvAwareTsDemuxer, type RecorderStatus } from '@klvscope/core';
import { startStreamingServer, type RunningStreamingServer, type StartStreamingOptions } from '@klvscope/gateway';
import { buildWeb } from '@klvscope/web/build';
import type { Page } from 'playwright-core';
import { chromiumUnavailableReason, launchChromium, saveScreenshot, type ChromiumSession } from '../../test-support/chromium.js';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import type { ViewerProbe } from '../src/viewer/viewer-probe.js';
import { VIEWER_SHORTCUTS } from '../src/viewer/viewer-shortcut-keys.js';
import { formatElapsed } from '../src/viewer/elapsed-format.js';
import { listenToStream, pauseOnFrame, probeWithTracksDrawn, readProbe, readVideo, settledProbeAndLatitude, stepFrame, waitForFrames } from './viewer-page-driver.js';

/** How far the page's frame PTS may be from the frame's true PTS: mpegts.js keeps whole milliseconds (pts-clock.ts). */
const HALF_MS_90KHZ = 45;
const H264 = 0x1b;
const ST_0601_SENSOR_LATITUDE = 13;

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

/**
 * The page's frame is a frame of the file (its media time mapped to a PTS the
 * file has, to the millisecond mpegts.js keeps), and the panel shows the file's
 * asynchronous packet for it: the latest whose PTS is not after the frame's.
 */
function expectFilePacketOfFrame(truth: FixtureTruth, probe: ViewerProbe, latitudeText: string): void {
  const frame = probe.lastFrame!;
  const truePts = truth.videoPts90kHz.find((pts) => Math.abs(pts - frame.pts90kHz) <= HALF_MS_90KHZ);
  expect(truePts, `frame PTS ${frame.pts90kHz} is one of the file's`).to.be.a('number');
  const expected = truth.packets.filter((packet) => packet.pts90kHz !== null && packet.pts90kHz <= truePts!).at(-1)!;
  expect(probe.panelKlv?.pts90kHz).to.equal(expected.pts90kHz);
  expect(probe.panelKlv?.values.sensorLatitudeDeg).to.equal(expected.sensorLatitudeDeg);
  expect(latitudeText).to.equal(`${expected.sensorLatitudeDeg!.toFixed(6)}°`);
}

/** The probe's frame and packet and the panel's latitude, read at once without waiting for them to settle. */
async function readPanelNow(page: Page): Promise<{ frame: ViewerProbe['lastFrame']; panelKlvPts90kHz: number | null; latitudeText: string }> {
  return page.evaluate(`(() => ({
    frame: window.klvscopeViewer.lastFrame,
    panelKlvPts90kHz: window.klvscopeViewer.panelKlv?.pts90kHz ?? null,
    latitudeText: document.querySelector('.klv-panel td[data-field="sensorLatitudeDeg"]')?.textContent ?? '',
  }))()`);
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('latin1')).to.equal('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
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
      expectFilePacketOfFrame(truth, probe, latitudeText);

      // One point per packet the page received: the file's packets between the first and the latest it got.
      const drawn = await probeWithTracksDrawn(page);
      const received = truth.packets.filter((packet) => packet.pts90kHz! >= drawn.firstKlvPts90kHz! && packet.pts90kHz! <= drawn.lastKlvPts90kHz!);
      expect(drawn.klvReceived).to.equal(received.length);
      expect(drawn.trackPointCount).to.equal(received.length);
      expect(drawn.frameCentrePointCount).to.equal(received.length);
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
      expect(await page.textContent('.command-error')).to.equal('recorder start refused: the user or password is wrong');
      // The form stays for another try.
      await page.fill('.credentials input[name=password]', 'viewer-test');
      await page.click('.credentials button[type=submit]');
      await page.waitForSelector('.command-ok');
      expect(await page.textContent('.command-ok')).to.equal('recorder start: running');
      const running = (await (await fetch(`${module!.server.url}/recorderState`)).json()) as RecorderStatus;
      expect(running.state).to.equal('running');
      expect(await page.textContent('[data-field="recorder"]')).to.contain(`running since ${running.timeStarted}`);
      await saveScreenshot(page, 'viewer-recorder-command');
      // The page keeps the credentials for the next command.
      await page.click('text=Stop recording');
      await page.waitForSelector('.command-ok:has-text("recorder stop")');
      expect(await page.textContent('.command-ok')).to.equal('recorder stop: stopped');
      expect(((await (await fetch(`${module!.server.url}/recorderState`)).json()) as RecorderStatus).state).to.equal('stopped');
      await page.close();
    });

    it('pauses with Space, steps a frame forward and back with the arrow keys, and moves the packet and the chart cursor with it', async () => {
      const truth = await decodeFixture(fixture);
      const page = await (chromium as ChromiumSession).newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        await page.goto(`${module!.server.url}/`);
        await waitForFrames(page, 45);
        await page.waitForFunction("!document.querySelector('video').paused", undefined, { timeout: 10_000 });
        await page.keyboard.press(' ');
        await page.waitForFunction('window.klvscopeViewer.paused === true', undefined, { timeout: 5_000 });
        await page.waitForTimeout(400);
        const paused = (await settledProbeAndLatitude(page)).probe;
        const start = paused.lastFrame!;
        expect(await page.textContent('.frame-clock [data-field="live"]')).to.equal('LIVE · paused');

        const forward = await stepFrame(page, 'ArrowRight', start.pts90kHz);
        expect(forward.lastStep).to.equal('stepped');
        // One frame of the 30 fps file later: 33 or 34 ms on mpegts.js's millisecond time line.
        expect(forward.lastFrame!.elapsedS - start.elapsedS).to.be.within(0.032, 0.035);
        expect(forward.paused, 'a step leaves the video paused').to.equal(true);
        // The module may be on a later pass of the looped file (its PTS carried on): the frame's own packet, a file's packet.
        expect(forward.lastFrame!.pts90kHz - forward.panelKlv!.pts90kHz!, 'the packet of that frame (one a frame)').to.be.within(-HALF_MS_90KHZ, HALF_MS_90KHZ);
        expect(truth.packets.map((packet) => packet.sensorLatitudeDeg)).to.include(forward.panelKlv!.values.sensorLatitudeDeg);
        expect(await page.textContent('.klv-panel td[data-field="sensorLatitudeDeg"]')).to.equal(`${forward.panelKlv!.values.sensorLatitudeDeg!.toFixed(6)}°`);
        expect(forward.panelKlv!.pts90kHz, 'the next frame has its own packet').to.not.equal(paused.panelKlv!.pts90kHz);
        expect(forward.telemetryCursorS, 'the charts\' cursor at the stepped frame').to.equal(forward.lastFrame!.elapsedS);
        expect(await page.textContent('[data-field="stepped-frame"]')).to.equal(`frame at ${formatElapsed(forward.lastFrame!.elapsedS, 3)} · PTS ${forward.lastFrame!.pts90kHz}`);

        const twice = await stepFrame(page, '.', forward.lastFrame!.pts90kHz);
        const back = await stepFrame(page, 'ArrowLeft', twice.lastFrame!.pts90kHz);
        expect(back.lastFrame!.pts90kHz, 'forward twice and back once: the first step\'s frame').to.equal(forward.lastFrame!.pts90kHz);
        expect(back.panelKlv).to.deep.equal(forward.panelKlv);
        expect(back.telemetryCursorS).to.equal(forward.lastFrame!.elapsedS);
        const backAgain = await stepFrame(page, ',', back.lastFrame!.pts90kHz);
        expect(backAgain.lastFrame!.pts90kHz).to.equal(start.pts90kHz);
        await page.setViewportSize({ width: 1440, height: 1300 });
        await page.waitForTimeout(300);
        await saveScreenshot(page, 'viewer-stepped-1440');
        await page.setViewportSize({ width: 1024, height: 1400 });
        await page.waitForTimeout(300);
        await saveScreenshot(page, 'viewer-stepped-1024');

        // Space again: playing on.
        await page.keyboard.press(' ');
        await page.waitForFunction('window.klvscopeViewer.paused === false && window.klvscopeViewer.lastStep === null', undefined, { timeout: 5_000 });
        await waitForFrames(page, backAgain.framesShown + 10);
        expect(errors).to.deep.equal([]);
      } finally {
        await page.close();
      }
    });

    it('charts every packet received (altitude, heading, slant range, sensor angles) and draws the footprint and the line of sight', async () => {
      const page = await (chromium as ChromiumSession).newPage();
      try {
        await page.goto(`${module!.server.url}/`);
        await waitForFrames(page, 20);
        const { probe } = await pauseOnFrame(page);
        // The charts take the packets in every 250 ms: once they have caught up, one row per packet received.
        const caught = await page.waitForFunction('window.klvscopeViewer.telemetryRows === window.klvscopeViewer.klvReceived && window.klvscopeViewer.telemetryRows', undefined, { timeout: 5_000, polling: 50 });
        expect(await caught.jsonValue()).to.be.greaterThan(30);
        expect(await page.evaluate<string[]>(`[...document.querySelectorAll('.telemetry-chart')].map((chart) => chart.getAttribute('data-chart'))`)).to.deep.equal(['altitude', 'heading', 'slant-range', 'sensor-angles']);
        expect(await page.locator('.telemetry-chart canvas').count()).to.equal(4);
        expect(probe.telemetryCursorS).to.equal(probe.lastFrame!.elapsedS);
        // The file's packets carry the four offset corners (items 26-33): the footprint, and the line of sight to the frame centre.
        expect(probe.panelKlv!.values.corners).to.have.length(4);
        expect(probe.footprintCorners).to.equal(4);
        expect(probe.lineOfSight).to.equal(true);
        // Every packet of the file has items 1, 2 and 65 (MANIFEST.md): the panel says so, and the module's message lists none missing.
        expect(probe.panelKlv!.missingMandatoryTags).to.deep.equal([]);
        expect(await page.textContent('.klv-panel [data-field="mandatory"]')).to.equal('Mandatory items (tags 1, 2, 65) all present');
      } finally {
        await page.close();
      }
    });

    it('shows the keys with ? and hides them with Escape', async () => {
      const page = await (chromium as ChromiumSession).newPage();
      try {
        await page.goto(`${module!.server.url}/`);
        expect(await page.$('.shortcut-help')).to.equal(null);
        await page.keyboard.press('?');
        await page.waitForSelector('.shortcut-help');
        expect(await page.locator('.shortcut-help tr.shortcut td:first-child').allTextContents()).to.deep.equal(VIEWER_SHORTCUTS.map((one) => one.keys));
        await saveScreenshot(page, 'viewer-keys-help');
        await page.keyboard.press('Escape');
        await page.waitForSelector('.shortcut-help', { state: 'detached' });
        await page.click('button[data-action="keys"]');
        await page.waitForSelector('.shortcut-help');
        await page.click('.shortcut-help .close-help');
        await page.waitForSelector('.shortcut-help', { state: 'detached' });
      } finally {
        await page.close();
      }
    });

    it('saves a snapshot PNG of the frame with its time and ST 0601 values written under the picture', async () => {
      const page = await (chromium as ChromiumSession).newPage();
      const dir = await mkdtemp(join(tmpdir(), 'klvscope-snapshot-'));
      try {
        await page.goto(`${module!.server.url}/`);
        await waitForFrames(page, 20);
        const { probe, latitudeText } = await pauseOnFrame(page);
        const [download] = await Promise.all([page.waitForEvent('download'), page.click('button[data-action="snapshot"]')]);
        expect(download.suggestedFilename()).to.equal(`klvscope-frame-pts${probe.lastFrame!.pts90kHz}.png`);
        const saved = join(dir, download.suggestedFilename());
        await download.saveAs(saved);
        const png = await readFile(saved);
        const size = pngSize(png);
        expect(size.width).to.equal(640);
        // The 480-line picture and five lines of caption under it.
        expect(size.height).to.equal(480 + 16 + 5 * 18);
        const snapshot = (await readProbe(page)).snapshot!;
        expect(snapshot.bytes).to.equal(png.length);
        expect(snapshot.caption[0]).to.equal(`frame at ${formatElapsed(probe.lastFrame!.elapsedS, 3)} of this view, PTS ${probe.lastFrame!.pts90kHz}`);
        expect(snapshot.caption[1]).to.contain(`packet PTS ${probe.panelKlv!.pts90kHz}`);
        expect(snapshot.caption[2]).to.contain(`platform ${latitudeText}`);
        expect(snapshot.caption[3]).to.contain(`slant range ${probe.panelKlv!.values.slantRangeM!.toFixed(1)} m`);
      } finally {
        await page.close();
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('keeps one player across the wrap of the looped file (its time stamps carried on), showing a packet of the frame', async () => {
      const truth = await decodeFixture(fixture);
      const lastFilePts = Math.max(...truth.videoPts90kHz);
      const page = await (chromium as ChromiumSession).newPage();
      await page.goto(`${module!.server.url}/`);
      // The 9.2 s file loops: its second pass goes on with later PTS, so the same player plays on.
      await page.waitForFunction(`(window.klvscopeViewer.lastFrame?.pts90kHz ?? 0) > ${lastFilePts + 90_000}`, undefined, { timeout: 40_000, polling: 100 });
      const { probe, latitudeText } = await pauseOnFrame(page);
      await saveScreenshot(page, 'viewer-fixture-looped');
      expect(probe.connections, 'no new connection at the wrap').to.equal(1);
      const frame = probe.lastFrame!;
      // Asynchronous KLV: the latest packet not after the frame, within 0.1 s of it, and a packet of the file.
      expect(frame.pts90kHz - probe.panelKlv!.pts90kHz!).to.be.within(-HALF_MS_90KHZ, 9_000);
      expect(truth.packets.map((packet) => packet.sensorLatitudeDeg)).to.include(probe.panelKlv!.values.sensorLatitudeDeg);
      expect(latitudeText).to.equal(`${probe.panelKlv!.values.sensorLatitudeDeg!.toFixed(6)}°`);
      // Paused, the live stream goes on arriving: the frame keeps its packet, past the 10 s the page keeps packets for.
      await page.waitForFunction(`window.klvscopeViewer.lastKlvPts90kHz > ${frame.pts90kHz + 10.5 * 90_000}`, undefined, { timeout: 20_000, polling: 200 });
      const later = await readPanelNow(page);
      expect(later.frame, 'the same frame').to.deep.equal(frame);
      expect(later.panelKlvPts90kHz, 'the same packet').to.equal(probe.panelKlv!.pts90kHz);
      expect(later.latitudeText, 'the same latitude in the panel').to.equal(latitudeText);
      await page.close();
    });
  });

  describe('on H.264 with B-frames (made by ffmpeg, no KLV) replayed to the module', () => {
    let dir: string;
    let clip: string;
    let module: { server: RunningStreamingServer; dataDir: string } | null = null;

    before(async function () {
      dir = await mkdtemp(join(tmpdir(), 'klvscope-bframes-'));
      clip = join(dir, 'bframes.ts');
      // Two B-frames per P: PTS runs ahead of DTS, so mpegts.js's first media time is not 0.
      const made = spawnSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=30', '-t', '12', '-c:v', 'libx264', '-profile:v', 'main', '-bf', '2', '-g', '30', '-pix_fmt', 'yuv420p', '-f', 'mpegts', clip]);
      if (made.error !== undefined || made.status !== 0) {
        console.log(`      skipped: ffmpeg could not make the clip (${made.error?.message ?? made.stderr.toString()})`);
        this.skip();
      }
      module = await startModule({ source: pathToFileURL(clip).href });
    });

    after(async () => {
      await module?.server.close();
      if (module) await rm(module.dataDir, { recursive: true, force: true });
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('maps the media time of the frame on screen to a PTS the clip has', async () => {
      const truth = await decodeFixture(clip);
      const page = await (chromium as ChromiumSession).newPage();
      await page.goto(`${module!.server.url}/`);
      await waitForFrames(page, 30);
      const { probe } = await pauseOnFrame(page);
      await saveScreenshot(page, 'viewer-bframes');
      expect(probe.firstFrameMediaTime, 'the first frame comes (PTS - DTS) after media time 0').to.be.greaterThan(0);
      const frame = probe.lastFrame!;
      expect(truth.videoPts90kHz.some((pts) => Math.abs(pts - frame.pts90kHz) <= HALF_MS_90KHZ), `frame PTS ${frame.pts90kHz} is one of the clip's`).to.be.true;
      await page.close();
    });
  });

  describe('on the built-in demo', () => {
    let module: { server: RunningStreamingServer; dataDir: string } | null = null;

    before(async () => {
      module = await startModule({ source: null });
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
        const drawn = await probeWithTracksDrawn(page);
        expect(drawn.klvReceived).to.be.greaterThan(0);
      } finally {
        listener.close();
        await page.close();
      }
    });
  });
});
