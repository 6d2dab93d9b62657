/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-explicit-any -- REST answers are read loosely: the test checks their values */
/**
 * Runs inside a private network namespace (test-support/private-network.ts):
 * a relay with 64 channels on 8 platforms, the 8 of the first relaying
 * multicast feeds to a unicast and a multicast output; one channel's sender
 * drops below the channel's minimum. Headless Chromium shows the console:
 * its traffic over 30 s is counted (Chromium's own network events), what it
 * shows is read beside what REST returns, screenshots are taken at 1440 and
 * 800 px and of the alarmed channel's detail page. Prints one JSON line; the
 * test (relay-console-64-channels.test.ts) judges it.
 */
import { createSocket } from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGenerator } from '@klvscope/core';
import { startRelayServer } from '@klvscope/gateway';
import { launchChromium, saveScreenshot } from '../../../test-support/chromium.js';
import { sendPacedLoop } from '../../../test-support/paced-udp-sender.js';
import { until } from '../../../test-support/until.js';

const KEY = 'relay-console-64-key-0123456789';
const PLATFORMS = 8;
const CHANNELS = 8;
const SENDER_BITRATE = 1_000_000;
const ALARMED = 'uav0-ch3';
const ALARM_MIN_BITRATE = 700_000;
const DROPPED_BITRATE = 300_000;
const TRAFFIC_WINDOW_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dataDir = await mkdtemp(join(tmpdir(), 'klvscope-relay-64-'));
const relay = await startRelayServer({ dataDir, port: 0, apiKey: KEY, env: {}, noSignalMs: 2000 });
const sink = createSocket('udp4');
await new Promise<void>((resolve) => sink.bind(0, '127.0.0.1', resolve));
const senders = new Map<number, { stop(): void }>();
const chromium = await launchChromium({ viewport: { width: 1440, height: 1000 } });
const rest = async (method: string, path: string, body?: unknown): Promise<any> => {
  const response = await fetch(`${relay.url}/api${path}`, { method, headers: { 'x-api-key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return response.json();
};
try {
  const platforms = Array.from({ length: PLATFORMS }, (_, p) => ({
    id: `uav-${p}`,
    name: `UAV ${p}`,
    description: p === 0 ? 'EO/IR, relaying' : 'configured, stopped',
    channels: Array.from({ length: CHANNELS }, (_, c) => ({
      channelId: `uav${p}-ch${c}`,
      name: `sensor ${c}`,
      input: `udp://239.10.${p}.${c}:5000?interface=127.0.0.1`,
      outputs: p === 0 ? [`udp://127.0.0.1:${sink.address().port}`, `udp://239.11.0.${c}:5002?ttl=1&interface=127.0.0.1`] : [],
      alarms: c === 3 && p === 0 ? { minBitrate: ALARM_MIN_BITRATE, maxSilenceMs: 3000 } : { maxSilenceMs: 3000 },
    })),
  }));
  await rest('POST', '/platforms/upload', platforms);
  const stream = Buffer.concat([...createGenerator({ durationSeconds: 6, bitrate: SENDER_BITRATE, packetSize: 188, audio: true, seed: 17, faults: [], klv: { carriage: 'sync', rateHz: 30 } }).chunks()]);
  for (let c = 0; c < CHANNELS; c++) senders.set(c, sendPacedLoop(stream, 5000, SENDER_BITRATE, `239.10.0.${c}`));
  await rest('POST', '/platforms/uav-0/command?command=start');

  const page = await chromium.newPage();
  // Network events from the start: a request begun before Network.enable (the feed) would report nothing.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  let counting = false;
  let received = 0;
  const urls = new Set<string>();
  cdp.on('Network.dataReceived', (event) => {
    if (counting) received += event.encodedDataLength;
  });
  cdp.on('Network.requestWillBeSent', (event) => {
    if (counting) urls.add(new URL(event.request.url).pathname);
  });
  await page.goto(`${relay.url}/#key=${encodeURIComponent(KEY)}`);
  await page.waitForFunction(`document.querySelectorAll('tr.channel').length === ${PLATFORMS * CHANNELS}`, undefined, { timeout: 20_000 });
  await page.waitForFunction(`[...document.querySelectorAll('tr.channel [data-field="state"]')].filter((s) => s.textContent === 'running').length === ${CHANNELS}`, undefined, { timeout: 20_000 });

  // One sender drops below its channel's minimum.
  senders.get(3)?.stop();
  senders.set(3, sendPacedLoop(stream, 5000, DROPPED_BITRATE, '239.10.0.3'));
  await page.waitForSelector(`tr.channel[data-channel-id="${ALARMED}"].in-alarm [data-field="alarm"]`, { timeout: 20_000 });
  const shownAlarm = await page.textContent(`tr.channel[data-channel-id="${ALARMED}"] [data-field="alarm"]`);
  const restAlarms = (await rest('GET', `/bitrates?channelId=${ALARMED}`))[0].alarms as any[];
  // Expressions, not functions: this program has no DOM types.
  const alarmedRows = await page.evaluate<string[]>(`[...document.querySelectorAll('tr.channel.in-alarm')].map((row) => row.getAttribute('data-channel-id'))`);

  // Per-PID rates: the page's for a second REST also reports, compared to the bit.
  let pidComparison: { shown: number[][]; rest: number[][]; time: string } | null = null;
  await until('a second shown by the page and REST alike', 15_000, async () => {
    const [fromRest] = await rest('GET', '/bitrates?channelId=uav0-ch0');
    const shownTime = await page.getAttribute('tr.channel[data-channel-id="uav0-ch0"] [data-field="bitrate"]', 'data-time');
    if (shownTime !== fromRest.time) return false;
    const shown = await page.evaluate<number[][]>(
      `[...document.querySelectorAll('tr.channel[data-channel-id="uav0-ch0"] .pid-rates tr')].map((row) => [Number(row.getAttribute('data-pid')), Number(row.querySelector('[data-field="pid-bitrate"]').getAttribute('data-bps'))])`,
    );
    pidComparison = { shown, rest: (fromRest.pids as Array<{ pid: number; bitrate: number }>).map((p) => [p.pid, p.bitrate]), time: fromRest.time as string };
    return true;
  });

  // The console's traffic: every byte Chromium received from the relay over 30 s.
  const updatesBefore = await page.evaluate<number>('window.klvscopeRelayConsole.polls');
  counting = true;
  const trafficStart = Date.now();
  await sleep(TRAFFIC_WINDOW_MS);
  counting = false;
  const trafficMs = Date.now() - trafficStart;
  const updatesSeen = (await page.evaluate<number>('window.klvscopeRelayConsole.polls')) - updatesBefore;

  const wide = await saveScreenshot(page, 'relay-console-64-channels-1440');
  await page.screenshot({ path: wide.replace('.png', '-top.png') });
  await page.setViewportSize({ width: 800, height: 1000 });
  await sleep(500);
  const layout800 = await page.evaluate<{ scrollWidth: number; overlaps: string[] }>(`(() => {
    const overlaps = [];
    for (const row of document.querySelectorAll('tr.channel')) {
      const commands = row.querySelector('td.commands').getBoundingClientRect();
      for (const cell of row.querySelectorAll('td:not(.commands)')) {
        const r = cell.getBoundingClientRect();
        if (r.width > 0 && commands.left < r.right - 1 && r.left < commands.right - 1 && commands.top < r.bottom - 1 && r.top < commands.bottom - 1) overlaps.push(row.getAttribute('data-channel-id') + ' ' + cell.className);
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, overlaps };
  })()`);
  const narrow = await saveScreenshot(page, 'relay-console-64-channels-800');
  await page.screenshot({ path: narrow.replace('.png', '-top.png') });

  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.click(`tr.channel[data-channel-id="${ALARMED}"] a.channel-name`);
  await page.waitForSelector(`section.channel-detail[data-channel-id="${ALARMED}"] svg.time-chart`);
  await sleep(1500);
  const detailLines = await page.evaluate<number[]>(`[...document.querySelectorAll('section.channel-detail svg.time-chart')].map((svg) => Number(svg.getAttribute('data-lines')))`);
  const detail = await saveScreenshot(page, 'relay-console-64-channels-detail');

  process.stdout.write(
    `${JSON.stringify({
      rows: PLATFORMS * CHANNELS,
      alarmedRows,
      shownAlarm,
      restAlarms,
      pidComparison,
      traffic: { bytes: received, ms: trafficMs, bytesPerSecond: (received * 1000) / trafficMs, paths: [...urls], updatesSeen },
      layout800,
      detailLines,
      screenshots: [wide, narrow, detail],
    })}\n`,
  );
} finally {
  for (const sender of senders.values()) sender.stop();
  sink.close();
  await chromium.close();
  await relay.close();
  await rm(dataDir, { recursive: true, force: true });
}
