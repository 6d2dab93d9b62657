/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-explicit-any -- REST answers are read loosely: the assertions check their values */
/**
 * The relay console in headless Chromium against a real channel relay
 * (startRelayServer on a real socket, the console built first), fed by real
 * UDP on 127.0.0.1: what the page shows equals what the relay's REST
 * interface returns. Screenshots go to test-artifacts/.
 */
import { expect } from 'chai';
import { createSocket } from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGenerator } from '@klvscope/core';
import { startRelayServer, type RunningRelayServer } from '@klvscope/gateway';
import { buildWeb } from '@klvscope/web/build';
import type { Page } from 'playwright-core';
import { launchChromium, saveScreenshot, skipWithoutChromium, type ChromiumSession } from '../../test-support/chromium.js';
import { freeUdpPort } from '../../test-support/free-udp-port.js';
import { sendPacedLoop } from '../../test-support/paced-udp-sender.js';
import type { StreamBitrates as GatewayStreamBitrates } from '../../gateway/src/relay/channel-bitrates.js';
import type { StreamDetection as GatewayStreamDetection } from '../../gateway/src/relay/stream-detector.js';
import type { StreamBitrates, StreamDetection } from '../src/relay-console/relay-api.js';
import { formatBitrate } from '../src/shared/bitrate-format.js';
import {
  channelAttribute,
  channelStateSelector,
  channelText,
  pressChannelCommand,
  pressPlatformCommand,
  readProbe,
  shownError,
  shownPlatforms,
  waitForNextPoll,
  waitForText,
} from './relay-console-page-driver.js';

// The console's view of the relay's answers must stay readable from the gateway's: this fails the typecheck when they part.
type Assignable<To, From extends To> = [To, From];
export type RelayAnswersAgree = [Assignable<StreamBitrates, GatewayStreamBitrates>, Assignable<StreamDetection, GatewayStreamDetection>];

const KEY = 'relay-console-test-key-0123456789';
const SENDER_BITRATE = 2_000_000;

describe('the relay console in Chromium', function () {
  this.timeout(60_000);
  let chromium: ChromiumSession | null = null;
  let relay: RunningRelayServer | null = null;
  let dataDir = '';
  let sender: { stop(): void } | null = null;
  const sink = createSocket('udp4');
  let page: Page;

  const rest = async (method: string, path: string, body?: unknown, key: string | null = KEY): Promise<{ status: number; body: any }> => {
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    if (key !== null) headers['x-api-key'] = key;
    const response = await fetch(`${relay!.url}/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : JSON.parse(text) };
  };
  const restPlatforms = async () =>
    ((await rest('GET', '/platforms?_limit=1000')).body as any[]).map((p) => ({ id: p.id, name: p.name, channels: (p.channels as any[]).map((c) => ({ channelId: c.channelId, name: c.name, state: c.state })) }));

  before(async function () {
    skipWithoutChromium(this);
    // Built before the relay starts: it reads web/dist/relay-console once, at start.
    await buildWeb();
    dataDir = await mkdtemp(join(tmpdir(), 'klvscope-relay-console-'));
    relay = await startRelayServer({ dataDir, port: 0, apiKey: KEY, env: {}, noSignalMs: 500 });
    await new Promise<void>((resolve) => sink.bind(0, '127.0.0.1', resolve));
    const [inputPort, idlePort, sparePort] = [await freeUdpPort(), await freeUdpPort(), await freeUdpPort()];
    const output = `udp://127.0.0.1:${sink.address().port}`;
    const created = await rest('POST', '/platforms/upload', [
      {
        id: 'uav-7',
        name: 'UAV 7',
        description: 'EO/IR turret',
        channels: [
          { channelId: 'uav7-eo', name: 'EO', input: `udp://127.0.0.1:${inputPort}`, outputs: [output] },
          { channelId: 'uav7-ir', name: 'IR', input: `udp://127.0.0.1:${idlePort}`, outputs: [output] },
        ],
      },
      { id: 'ground', name: 'Ground station', channels: [{ channelId: 'ground-spare', name: 'Spare', input: `udp://127.0.0.1:${sparePort}` }] },
    ]);
    expect(created.status).to.equal(201);
    const stream = createGenerator({ durationSeconds: 12, bitrate: SENDER_BITRATE, packetSize: 188, audio: false, seed: 7, faults: [], klv: { carriage: 'sync', rateHz: 30 } });
    sender = sendPacedLoop(Buffer.concat([...stream.chunks()]), inputPort, SENDER_BITRATE);
    chromium = await launchChromium({ viewport: { width: 1280, height: 720 } });
  });

  after(async () => {
    sender?.stop();
    sink.close();
    await chromium?.close();
    await relay?.close();
    if (dataDir !== '') await rm(dataDir, { recursive: true, force: true });
  });

  describe('without the key', () => {
    it("shows only the sign-in form without a key, and with a wrong key typed in the relay's refusal", async () => {
      const signInPage = await chromium!.newPage();
      await signInPage.goto(`${relay!.url}/`);
      await signInPage.waitForSelector('form.sign-in');
      const noData = async () => {
        expect(await signInPage.$$('section.platform, .server-line')).to.have.length(0);
        expect(await signInPage.textContent('body')).not.to.include('UAV 7');
        expect((await readProbe(signInPage)).signedIn).to.equal(false);
      };
      await noData();

      await signInPage.fill('form.sign-in input[name="key"]', 'not-the-key-0123456789');
      await signInPage.click('form.sign-in button[type="submit"]');
      await signInPage.waitForSelector('form.sign-in .error-notice');
      const refused = (await rest('GET', '/auth/status', undefined, 'not-the-key-0123456789')).body.error;
      expect(await shownError(signInPage)).to.deep.equal({ code: refused.code, message: refused.message });
      expect(refused.code).to.equal('ERR_API_KEY_WRONG');
      await noData();

      console.log(`      screenshot: ${await saveScreenshot(signInPage, 'relay-console-sign-in')}`);
      await signInPage.close();
    });

    it('refuses a wrong key in the fragment, which leaves the address bar and is not kept; the right one then signs in', async () => {
      const linkPage = await chromium!.newPage();
      await linkPage.goto(`${relay!.url}/#key=another-wrong-key-0123`);
      await linkPage.waitForSelector('form.sign-in .error-notice');
      expect(linkPage.url(), 'the fragment left the address bar').to.equal(`${relay!.url}/`);
      expect((await shownError(linkPage))?.code).to.equal('ERR_API_KEY_WRONG');
      expect(await linkPage.evaluate('sessionStorage.length'), 'a refused key is not kept').to.equal(0);
      expect(await linkPage.$$('section.platform')).to.have.length(0);
      // The same tab, only the fragment changed (no new page load): the page signs in with it all the same.
      await linkPage.goto(`${relay!.url}/#key=${encodeURIComponent(KEY)}`);
      await linkPage.waitForSelector('section.platform');
      expect(linkPage.url()).to.equal(`${relay!.url}/`);
      await linkPage.close();
    });
  });

  describe('signed in with the key in the fragment', () => {
    before(async () => {
      page = await chromium!.newPage();
      await page.goto(`${relay!.url}/#key=${encodeURIComponent(KEY)}`);
      await page.waitForFunction('window.klvscopeRelayConsole.signedIn && window.klvscopeRelayConsole.polls > 0', undefined, { timeout: 10_000 });
    });

    it('drops the key from the address bar, and keeps it for the tab only', async () => {
      expect(page.url()).to.equal(`${relay!.url}/`);
      expect(await page.evaluate('location.hash')).to.equal('');
      expect(await page.evaluate('sessionStorage.getItem("klvscope.apiKey")')).to.equal(KEY);
    });

    it('lists the platforms and channels REST returns, with their states, the server state and a link to the docs', async () => {
      expect(await shownPlatforms(page)).to.deep.equal(await restPlatforms());
      const [latest] = (await rest('GET', '/serverStatus?_sort=id&_order=desc&_limit=1')).body;
      await waitForText(page, '[data-field="server-state"]', `server ${latest.state as string}`);
      const docs = await page.getAttribute('a[href="api/docs/"]', 'href');
      expect(docs).to.equal('api/docs/');
      expect((await fetch(new URL(docs!, `${relay!.url}/`))).status).to.equal(200);
    });

    it('starts a channel fed by UDP: running, and a sparkline of the bitrate /api/bitrates reports', async () => {
      await pressChannelCommand(page, 'uav7-eo', 'start');
      await waitForText(page, channelStateSelector('uav7-eo'), 'running');
      expect((await rest('GET', '/platforms/uav-7')).body.channels[0].state).to.equal('running');
      // Three whole seconds of readings.
      await page.waitForFunction('(window.klvscopeRelayConsole.sparklines["uav7-eo"] ?? []).filter((p) => p.bitsPerSecond > 0).length >= 4', undefined, { timeout: 10_000, polling: 100 });
      const shownTime = await channelAttribute(page, 'uav7-eo', 'bitrate', 'data-time');
      const shownText = await channelText(page, 'uav7-eo', 'bitrate');
      const probe = await readProbe(page);
      const [bitrates] = (await rest('GET', '/bitrates?channelId=uav7-eo')).body;
      const history = new Map((bitrates.history as Array<{ time: string; inputBitrate: number }>).map((r) => [Date.parse(r.time), r.inputBitrate]));
      // The reading on screen is one REST has, to the bit; so is every point of the sparkline.
      expect(shownText).to.equal(formatBitrate(history.get(Date.parse(shownTime))!));
      const points = probe.sparklines['uav7-eo'];
      for (const point of points) expect(point.bitsPerSecond, new Date(point.timeMs).toISOString()).to.equal(history.get(point.timeMs));
      expect(Number(await page.getAttribute('tr.channel[data-channel-id="uav7-eo"] svg.sparkline', 'data-points'))).to.equal(points.length);
      // The first reading covers the start, part of a second: the others are whole seconds of a 2 Mb/s sender.
      for (const point of points.slice(1)) expect(point.bitsPerSecond).to.be.within(SENDER_BITRATE * 0.7, SENDER_BITRATE * 1.3);
    });

    it('shows the detection REST returns after detect', async () => {
      await pressChannelCommand(page, 'uav7-eo', 'detect');
      await page.waitForSelector('tr.channel[data-channel-id="uav7-eo"] [data-field="detection"]', { timeout: 10_000 });
      const [detection] = (await rest('GET', '/streamDetectionInfo?channelId=uav7-eo')).body;
      expect(await channelAttribute(page, 'uav7-eo', 'detection', 'data-time')).to.equal(detection.time);
      expect(await channelText(page, 'uav7-eo', 'detection-bitrate')).to.equal(formatBitrate(detection.bitrate as number));
      expect(detection.video, 'the generated stream has video').not.to.equal(null);
      const resolution = detection.video.resolution === null ? '' : ` ${detection.video.resolution as string}`;
      expect(await channelText(page, 'uav7-eo', 'detection-video')).to.equal(`${detection.video.codec as string}${resolution} (PID ${detection.video.pid as number})`);
      const klv = detection.klv[0];
      expect(await channelText(page, 'uav7-eo', 'detection-klv')).to.equal(`KLV PID ${klv.pid as number}: ${(klv.standards as string[]).join(', ')}, ${klv.carriage as string}, ${(klv.rateHz as number).toFixed(1)} Hz`);
      // Every problem REST counts, by type and severity, one line each, coloured by its severity.
      const shownProblems = await page.$$eval('tr.channel[data-channel-id="uav7-eo"] [data-field="detection-problems"]', (items): Array<[string | null, string]> => items.map((item) => [item.textContent, item.className]));
      expect(shownProblems).to.deep.equal((detection.problems as Array<{ type: string; severity: string; count: number }>).map((p) => [`${p.count} ${p.type} (${p.severity})`, `finding-${p.severity}`]));
      console.log(`      screenshot: ${await saveScreenshot(page, 'relay-console')}`);
    });

    it('stops the channel', async () => {
      await pressChannelCommand(page, 'uav7-eo', 'stop');
      await waitForText(page, channelStateSelector('uav7-eo'), 'stopped');
      expect((await rest('GET', '/platforms/uav-7')).body.channels[0].state).to.equal('stopped');
    });

    it('starts and stops a whole platform, its states those REST returns', async () => {
      await pressPlatformCommand(page, 'uav-7', 'start');
      // The fed channel runs; the silent one has no signal after noSignalMs.
      await waitForStates(page, restPlatforms, ['running', 'no-signal']);
      await pressPlatformCommand(page, 'uav-7', 'stop');
      await waitForStates(page, restPlatforms, ['stopped', 'stopped']);
    });

    it("shows the relay's error body when a command is refused", async () => {
      // Right after a poll the page still lists the channel for a second: deleted behind its back, the command is refused.
      await waitForNextPoll(page);
      expect((await rest('DELETE', '/channels/ground-spare')).status).to.equal(204);
      await pressChannelCommand(page, 'ground-spare', 'start');
      await page.waitForSelector('.error-notice', { timeout: 5_000 });
      const refused = (await rest('POST', '/channels/command', { channelId: 'ground-spare', command: 'start' })).body.error;
      expect(refused.code).to.equal('ERR_CHANNEL_NOT_FOUND');
      expect(await shownError(page)).to.deep.equal({ code: refused.code, message: refused.message });
      // And the next poll no longer lists the channel, as REST does not.
      await waitForNextPoll(page);
      expect(await shownPlatforms(page)).to.deep.equal(await restPlatforms());
      console.log(`      screenshot: ${await saveScreenshot(page, 'relay-console-refused')}`);
    });
  });
});

/** Waits until REST and the page, after a poll, both give platform uav-7's channels these states; else fails saying what each gave. */
async function waitForStates(page: Page, restPlatforms: () => Promise<Array<{ id: string; channels: Array<{ state: string }> }>>, expected: string[]): Promise<void> {
  const statesOf = (platforms: Array<{ id: string; channels: Array<{ state: string }> }>) => platforms.find((p) => p.id === 'uav-7')!.channels.map((c) => c.state);
  const end = Date.now() + 10_000;
  for (;;) {
    const fromRest = statesOf(await restPlatforms());
    await waitForNextPoll(page);
    const shown = statesOf(await shownPlatforms(page));
    if (JSON.stringify([fromRest, shown]) === JSON.stringify([expected, expected])) return;
    if (Date.now() > end) throw new Error(`expected ${JSON.stringify(expected)}: the page shows ${JSON.stringify(shown)}, REST returns ${JSON.stringify(fromRest)}`);
  }
}
