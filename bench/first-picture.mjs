// `npm run bench:first-picture`: how long from starting the streaming module to the first moving
// frame in the viewer page (headless Chromium), over BENCH_STARTS (20) starts per source: the
// built-in demo, a long file (60 s H.264 640x360), a short looped file (1.6 s H.264 Main 720x480),
// a live UDP feed (the long file replayed to 127.0.0.1 in a loop) and a transcoded one (a 10 s HEVC
// gbrp clip). A start is: startStreamingServer, a fresh page on it, until the page has presented
// two frames and the video's time has moved on; then both are closed. Not a test: it prints
// min, p50, p95 and max per source (the median and the spread). Targets (issue 36): p95 < 2 s, < 3 s transcoded. The clips are made with
// ffmpeg into a temporary folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findFfmpeg, replayFile } from '@klvscope/adapters';
import { startStreamingServer } from '@klvscope/gateway';
import { buildWeb } from '@klvscope/web/build';
import { launchChromium } from '../test-support/chromium.ts';
import { makeClip } from '../test-support/ffmpeg-clips.ts';
import { freeUdpPort } from '../test-support/free-udp-port.ts';

const STARTS = Number(process.env.BENCH_STARTS ?? 20);
const TIMEOUT_MS = 20_000;
const MOVING = '(() => { const p = window.klvscopeViewer; const v = document.querySelector("video"); return p.framesShown >= 2 && p.firstFrameMediaTime !== null && v !== null && v.currentTime > p.firstFrameMediaTime; })()';

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

const ffmpeg = findFfmpeg();
if (ffmpeg === null) {
  console.error('bench:first-picture needs ffmpeg (apt-get install ffmpeg)');
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'klvscope-bench-first-picture-'));
const longFile = makeClip(ffmpeg, dir, 'long', { codec: 'h264', seconds: 60, size: '640x360', rate: 30, klv: true });
const shortFile = makeClip(ffmpeg, dir, 'short', { codec: 'h264', seconds: 1.6, size: '720x480', rate: 30, klv: true });
const hevcFile = makeClip(ffmpeg, dir, 'hevc', { codec: 'hevc', pixelFormat: 'gbrp', seconds: 10, size: '320x240', rate: 25, klv: true });
const udpPort = await freeUdpPort();
const sender = new AbortController();
const feed = replayFile(longFile, `udp://127.0.0.1:${udpPort}`, { loop: true, signal: sender.signal });

const sources = [
  { name: 'demo', source: null },
  { name: 'long file', source: pathToFileURL(longFile).href },
  { name: 'short looped file', source: pathToFileURL(shortFile).href },
  { name: 'live UDP feed', source: `udp://127.0.0.1:${udpPort}` },
  { name: 'transcoded (HEVC)', source: pathToFileURL(hevcFile).href, transcoded: true },
];

await buildWeb();
const chromium = await launchChromium({ viewport: { width: 1280, height: 900 } });
const results = [];
try {
  for (const { name, source, transcoded } of sources) {
    const times = [];
    let failures = 0;
    for (let start = 0; start < STARTS; start++) {
      const t0 = performance.now();
      const server = await startStreamingServer({ dataDir: join(dir, `data-${results.length}-${start}`), port: 0, env: {}, config: { source } });
      const page = await chromium.newPage();
      try {
        await page.goto(`${server.url}/`);
        await page.waitForFunction(MOVING, undefined, { timeout: TIMEOUT_MS, polling: 20 });
        times.push(performance.now() - t0);
      } catch {
        failures++;
      } finally {
        await page.close();
        await server.close();
      }
    }
    const target = transcoded ? 3_000 : 2_000;
    const p95 = times.length ? percentile(times, 95) : Infinity;
    results.push({ name, p50: times.length ? percentile(times, 50) : Infinity, p95, first: times[0], min: Math.min(...times), max: Math.max(...times), failures, target });
    const last = results.at(-1);
    console.log(`${name.padEnd(20)} min ${seconds(last.min)}  p50 ${seconds(last.p50)}  p95 ${seconds(last.p95)}  first ${seconds(last.first ?? NaN)}  max ${seconds(last.max)}  failed ${failures}/${STARTS}  target p95 < ${seconds(target)}: ${p95 < target ? 'met' : 'MISSED'}`);
  }
} finally {
  await chromium.close();
  sender.abort();
  await feed.catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}
