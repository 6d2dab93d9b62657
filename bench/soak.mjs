// `npm run soak [-- --minutes 60 --sample-seconds 60 --out DIR]` (not in CI): issue 35's soak. All three
// services in one `klvscope start` as `npm start` runs it (the built command, gateway/bin/klvscope.cjs, with
// the node options and allocator settings of package.json's start script; --sources runs gateway/src through tsx instead, whose compiler and source maps hold
// about 60 MB more of RSS than the command a user runs), inside a private network
// namespace made for the run (unshare --net: loopback only, 224.0.0.0/4 routed to it), under a mixed load
// that keeps every long-lived path busy at once:
//   - a live session on a multicast feed (--bitrate, default 20 Mb/s) with a fault injected every minute of
//     the looped file (a PCR gap), its findings, metadata and state read over REST in a loop; beside the
//     feed, on the same group, issue 35's flood for the whole run: --flood-rate (default 2,000, 0 for none)
//     hostile datagrams a second of its five kinds (test-support/hostile-datagrams.ts);
//   - the relay relaying four channels from multicast groups to unicast ports of this process, the
//     fourth going silent for --silence-seconds every --silence-every-seconds and coming back;
//   - the streaming module (built-in demo) with --viewers WebSocket viewers that connect, stay a while
//     and disconnect, and its recorder started and stopped in turn, its files kept within
//     --recordings-keep-gb (default 0.1: the data folder's size stays bounded);
//   - REST clients on the three surfaces: rule changes (PUT validation-rules) and back, an analysis of a
//     file after each, the archive read and its entry deleted, relay and streaming reads.
// Every --sample-seconds it records the service process's RSS, V8 heap used and total, array buffers,
// other external memory, what is outside V8 (RSS less both), open descriptors, sockets, event-loop
// delay p99 (bench/memory-probe.mjs) and the data folder's size, into
// soak.csv and soak.html (uPlot, inlined) in --out. It fails (exit 1) when any request failed or, over the
// last three quarters of the run, RSS grew faster than --max-rss-mb-per-hour (least squares), RSS ever
// passed --max-rss-mb (default 300), or the open
// descriptors grew by more than --max-fd-growth. A short run (--minutes 0.5 --sample-seconds 2) is what a
// test can afford; the hour is the real measure. --node-option passes a flag to the service's node (repeatable).
import { spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { npmStartOptions } from './npm-start-options.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const INSIDE = 'KLVSCOPE_BENCH_PRIVATE_NETWORK';
const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '60' },
    sources: { type: 'boolean', default: false },
    'sample-seconds': { type: 'string' },
    out: { type: 'string' },
    bitrate: { type: 'string', default: '20000000' },
    viewers: { type: 'string', default: '20' },
    'silence-every-seconds': { type: 'string' },
    'silence-seconds': { type: 'string' },
    'max-rss-mb-per-hour': { type: 'string' },
    'max-fd-growth': { type: 'string', default: '4' },
    'max-rss-mb': { type: 'string', default: '300' },
    'flood-rate': { type: 'string', default: '2000' },
    'recordings-keep-gb': { type: 'string', default: '0.1' },
    'node-option': { type: 'string', multiple: true, default: [] },
    send: { type: 'string' },
    flood: { type: 'string' },
  },
});

if (values.send !== undefined) await runSender(JSON.parse(values.send));
if (values.flood !== undefined) await runFlood(JSON.parse(values.flood));

if (process.env[INSIDE] !== '1') {
  const setup = 'ip link set lo up && ip route add 224.0.0.0/4 dev lo && exec "$@"';
  const run = spawnSync('unshare', ['--net', 'sh', '-c', setup, 'sh', process.execPath, '--conditions=source', '--import=tsx', fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, [INSIDE]: '1' },
  });
  if (run.error || run.status === null) console.error(`soak: cannot make a private network namespace (root and iproute2 needed): ${run.error?.message ?? run.signal}`);
  process.exit(run.status ?? 1);
}

const minutes = Number(values.minutes);
const runMs = minutes * 60_000;
const short = minutes < 5;
const sampleMs = Number(values['sample-seconds'] ?? (short ? 2 : 60)) * 1_000;
const silenceEveryMs = Number(values['silence-every-seconds'] ?? (short ? 10 : 180)) * 1_000;
const silenceMs = Number(values['silence-seconds'] ?? (short ? 4 : 30)) * 1_000;
const viewerCount = Number(values.viewers);
const out = values.out ?? mkdtempSync(join(tmpdir(), 'klvscope-soak-'));
mkdirSync(out, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'klvscope-soak-work-'));
const dataDir = join(work, 'data');
const recordings = join(work, 'recordings');
mkdirSync(recordings, { recursive: true });
const KEY = 'soak-key-0123456789abcdef0123456789';
const STREAM_USER = 'soak';
const STREAM_PASSWORD = 'soak-password';
const LIVE_GROUP = { host: '239.35.0.1', port: 6001 };
const RELAY_GROUPS = [1, 2, 3, 4].map((i) => ({ host: `239.35.1.${i}`, port: 6100 + i }));

const failures = [];
const counts = { requests: 0, failed: 0, viewerConnects: 0, viewerFailures: 0 };
const children = [];

// The streams: the live feed's minute with a PCR gap in it (looped: a fault a minute), and a light one for the relay.
const { generateTransportStream } = await import('@klvscope/core');
const liveSeconds = short ? 10 : 60;
const liveFile = join(recordings, 'live-feed.ts');
writeFileSync(liveFile, generateTransportStream({ bitrate: Number(values.bitrate), seed: 35, durationSeconds: liveSeconds, faults: [{ kind: 'pcr-gap', atSeconds: liveSeconds / 2 }] }).bytes);
const relayFile = join(recordings, 'relay-feed.ts');
writeFileSync(relayFile, generateTransportStream({ bitrate: 1_000_000, seed: 36, durationSeconds: 10 }).bytes);
const inspectedFile = join(recordings, 'inspected.ts');
writeFileSync(inspectedFile, generateTransportStream({ bitrate: 2_000_000, seed: 37, durationSeconds: 5, faults: [{ kind: 'drop-packet', atSeconds: 2 }] }).bytes);

const probeFile = join(work, 'memory.jsonl');
// The options `npm start` gives node and glibc's allocator, from package.json itself.
const startOptions = npmStartOptions(repo);
const service = spawn(
  process.execPath,
  [...startOptions.nodeOptions, ...values['node-option'], '--import', join(here, 'memory-probe.mjs'), ...(values.sources ? ['--conditions=source', '--import', import.meta.resolve('tsx'), join(repo, 'gateway/src/cli/main.ts')] : [join(repo, 'gateway/bin/klvscope.cjs')]), 'start', '--data-dir', dataDir, '--port', '0', '--stream-port', '0', '--relay-port', '0', '--recordings-keep-gb', values['recordings-keep-gb']],
  {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      PATH: process.env.PATH,
      KLVSCOPE_API_KEY: KEY,
      KLVSCOPE_STREAM_USER: STREAM_USER,
      KLVSCOPE_STREAM_PASSWORD: STREAM_PASSWORD,
      KLVSCOPE_MEMORY_PROBE: probeFile,
      ...startOptions.env,
    },
  },
);
children.push(service);
const exited = new Promise((resolve) => service.once('exit', resolve));
let stopping = false;
let finishing = false;
service.once('exit', (code) => {
  if (!finishing) failures.push(`the service exited (${code}) during the run`);
});

try {
  const urls = await new Promise((resolve, reject) => {
    const found = {};
    const lines = createInterface({ input: service.stdout });
    lines.on('line', (line) => {
      const url = /(http:\/\/127\.0\.0\.1:\d+\S*)/.exec(line)?.[1];
      if (url && /inspection service/.test(line)) found.inspection = url;
      else if (url && /stream/i.test(line) && !found.streaming) found.streaming = url.replace(/\/$/, '');
      else if (url && /relay/i.test(line) && !found.relay) found.relay = url.replace(/\/$/, '');
      if (/Ctrl\+C/.test(line)) resolve(found);
    });
    service.once('exit', (code) => reject(new Error(`klvscope start exited with ${code}`)));
  });
  console.log(`soak: ${minutes} min, a sample every ${sampleMs / 1_000} s; services ${JSON.stringify(urls)}; results in ${out}`);
  const relayApi = urls.relay.endsWith('/api') ? urls.relay : `${urls.relay}/api`;

  const request = async (method, url, { body, headers = {}, expect = [200] } = {}) => {
    counts.requests++;
    try {
      const response = await fetch(url, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
      const text = await response.text();
      if (!expect.includes(response.status)) throw new Error(`${response.status} ${text.slice(0, 200)}`);
      return text.length > 0 && (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
    } catch (error) {
      counts.failed++;
      if (failures.length < 50) failures.push(`${method} ${url}: ${error.message}`);
      return null;
    }
  };
  const inspection = (method, path, options = {}) => request(method, `${urls.inspection}${path}`, { ...options, headers: { 'x-api-key': KEY } });
  const relay = (method, path, options = {}) => request(method, `${relayApi}${path}`, { ...options, headers: { 'x-api-key': KEY } });
  const streamAuth = { authorization: `Basic ${Buffer.from(`${STREAM_USER}:${STREAM_PASSWORD}`).toString('base64')}` };
  const streaming = (method, path, options = {}) => request(method, `${urls.streaming}${path}`, { ...options, headers: streamAuth });

  await inspection('PATCH', '/config', { body: { browseRoots: [recordings] } });

  // Relay outputs: one receiver per channel in this process.
  const receivers = [];
  for (const _ of RELAY_GROUPS) {
    const socket = createSocket('udp4');
    await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const receiver = { socket, datagrams: 0 };
    socket.on('message', () => receiver.datagrams++);
    receivers.push(receiver);
  }
  await relay('POST', '/platforms', {
    expect: [200, 201],
    body: {
      id: 'soak',
      name: 'soak',
      channels: RELAY_GROUPS.map((group, i) => ({ channelId: `soak${i + 1}`, name: `soak ${i + 1}`, input: `udp://${group.host}:${group.port}?interface=127.0.0.1`, outputs: [`udp://127.0.0.1:${receivers[i].socket.address().port}`] })),
    },
  });
  await relay('POST', '/platforms/soak/command?command=start', { expect: [200, 201, 204] });

  // The senders: one process for the live feed and the three steady relay channels, one for the channel that goes silent.
  const startSender = (feeds) => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', import.meta.resolve('tsx'), fileURLToPath(import.meta.url), '--send', JSON.stringify(feeds)], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(child);
    return child;
  };
  const url = (group) => `udp://${group.host}:${group.port}?interface=127.0.0.1`;
  startSender([
    { file: liveFile, url: url(LIVE_GROUP) },
    ...RELAY_GROUPS.slice(0, 3).map((group) => ({ file: relayFile, url: url(group) })),
  ]);
  let silentChannel = startSender([{ file: relayFile, url: url(RELAY_GROUPS[3]) }]);

  const live = await inspection('POST', '/sessions/live', { body: { source: url(LIVE_GROUP) }, expect: [200, 201] });
  if (!live) throw new Error(`the live session did not start: ${failures.join('; ')}`);
  // The clock starts once the feed arrives (the sender's own start takes seconds on a loaded machine).
  for (let waited = 0; (await inspection('GET', `/sessions/${live.sessionId}`))?.status !== 'receiving'; waited++) {
    if (waited > 60) throw new Error('the live session received nothing in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  // Issue 35's flood for the whole run: hostile datagrams of its five kinds to the live session's group, beside its feed.
  const floodRate = Number(values['flood-rate']);
  if (floodRate > 0) {
    const child = spawn(process.execPath, ['--conditions=source', '--import', import.meta.resolve('tsx'), fileURLToPath(import.meta.url), '--flood', JSON.stringify({ ...LIVE_GROUP, rate: floodRate })], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(child);
  }

  // Ctrl+C ends the run early, with its samples written and every process stopped.
  process.once('SIGINT', () => (stopping = true));
  process.once('SIGTERM', () => (stopping = true));
  const startedAt = Date.now();
  const running = () => Date.now() - startedAt < runMs && !stopping;
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  // A long wait (the silent channel's 3 minutes) ends with the run, not minutes after it.
  const pauseWhileRunning = async (ms) => {
    for (const until = Date.now() + ms; running() && Date.now() < until; ) await pause(Math.min(1_000, until - Date.now()));
  };

  // Written as the samples come, so a run that dies still leaves its readings.
  const samples = [];
  const CSV_COLUMNS = ['minute', 'rssMb', 'heapUsedMb', 'heapTotalMb', 'arrayBuffersMb', 'externalMb', 'outsideV8Mb', 'fds', 'sockets', 'eventLoopDelayP99Ms', 'dataFolderMb'];
  writeFileSync(join(out, 'soak.csv'), `${CSV_COLUMNS.join(',')}\n`);
  const sampler = (async () => {
    while (running()) {
      await pause(sampleMs);
      const reading = sample((Date.now() - startedAt) / 60_000);
      samples.push(reading);
      appendFileSync(join(out, 'soak.csv'), `${CSV_COLUMNS.map((column) => (column === 'minute' ? reading.minute.toFixed(2) : reading[column])).join(',')}\n`);
    }
  })();

  const silence = (async () => {
    while (running()) {
      await pauseWhileRunning(silenceEveryMs);
      if (!running()) break;
      silentChannel.kill('SIGTERM');
      await pauseWhileRunning(silenceMs);
      if (running()) silentChannel = startSender([{ file: relayFile, url: url(RELAY_GROUPS[3]) }]);
    }
  })();

  const { default: WebSocket } = await import('ws');
  const viewers = Array.from({ length: viewerCount }, async (_, index) => {
    await pause(index * 200);
    while (running()) {
      counts.viewerConnects++;
      const socket = new WebSocket(`${urls.streaming.replace(/^http/, 'ws')}/stream`);
      let failed = false;
      socket.on('error', () => (failed = true));
      await pause(2_000 + ((index * 997) % 8_000));
      socket.terminate();
      if (failed) counts.viewerFailures++;
      await pause(500);
    }
  });

  const restLoop = (async () => {
    for (let round = 0; running(); round++) {
      const session = await inspection('GET', `/sessions/${live.sessionId}`);
      if (session && !['receiving', 'waiting'].includes(session.status)) failures.push(`the live session is ${session.status} at round ${round}`);
      await inspection('GET', `/sessions/${live.sessionId}/findings?limit=100&offset=0`);
      await inspection('GET', `/sessions/${live.sessionId}/metadata?limit=20&offset=0`);
      // A rule change and back, with an analysis of the file after each (the stages run again), the archive read and emptied.
      if (round % 2 === 0) await inspection('PUT', '/validation-rules/current', { body: { checks: { 'mpegts-pcr-intervals': { maxIntervalMs: round % 4 === 0 ? 39 : 40 } } } });
      await inspection('GET', '/validation-rules');
      await inspection('POST', '/analysis/file', { body: { filePath: inspectedFile } });
      const archive = await inspection('GET', '/analysis/archive');
      const hashes = (Array.isArray(archive) ? archive : (archive?.items ?? archive?.files ?? [])).map((entry) => entry.hash ?? entry.fileHash).filter(Boolean);
      if (hashes.length > 0 && round % 3 === 2) await inspection('DELETE', '/analysis/archive', { body: { hashes } });
      await relay('GET', '/bitrates');
      await relay('GET', '/platforms');
      await relay('GET', '/logMessages?_limit=20');
      await streaming('GET', '/info');
      await streaming('GET', '/recorderState');
      await streaming('POST', '/command', { body: { service: 'recorder', command: round % 2 === 0 ? 'start' : 'stop', params: '' }, expect: [200, 201, 204] });
      await pause(short ? 200 : 1_000);
    }
  })();

  await Promise.all([sampler, silence, restLoop, ...viewers]);
  silentChannel.kill('SIGTERM');
  for (const receiver of receivers) receiver.socket.close();

  // The verdict: growth over the last three quarters of the run.
  writeFileSync(join(out, 'soak.html'), plotPage(samples));
  const tail = samples.filter((s) => s.minute >= minutes / 4);
  const rssPerHour = slopePerMinute(tail, 'rssMb') * 60;
  const heapPerHour = slopePerMinute(tail, 'heapUsedMb') * 60;
  const outsideV8PerHour = slopePerMinute(tail, 'outsideV8Mb') * 60;
  const fdGrowth = tail.length > 1 ? Math.max(...tail.slice(-Math.ceil(tail.length / 3)).map((s) => s.fds)) - Math.max(...tail.slice(0, Math.ceil(tail.length / 3)).map((s) => s.fds)) : 0;
  // A short run is mostly warm-up: its slope says little, so it is bounded only when asked.
  const maxRssPerHour = Number(values['max-rss-mb-per-hour'] ?? (short ? Infinity : 5));
  const maxFdGrowth = Number(values['max-fd-growth']);
  const maxRssMb = Number(values['max-rss-mb']);
  const peakRss = Math.max(...samples.map((s) => s.rssMb));
  if (peakRss > maxRssMb) failures.push(`RSS reached ${peakRss} MB (bound ${maxRssMb})`);
  if (rssPerHour > maxRssPerHour) failures.push(`RSS grew ${rssPerHour.toFixed(1)} MB/h over the last three quarters (bound ${maxRssPerHour})`);
  if (fdGrowth > maxFdGrowth) failures.push(`open descriptors grew by ${fdGrowth} over the last three quarters (bound ${maxFdGrowth})`);
  const range = (key) => `${Math.min(...samples.map((s) => s[key]))}–${Math.max(...samples.map((s) => s[key]))}`;
  console.log(`  samples ${samples.length}; RSS ${range('rssMb')} MB (${rssPerHour.toFixed(1)} MB/h after the first quarter), heap used ${range('heapUsedMb')} MB (${heapPerHour.toFixed(1)} MB/h), array buffers ${range('arrayBuffersMb')} MB, outside V8 ${range('outsideV8Mb')} MB (${outsideV8PerHour.toFixed(1)} MB/h)`);
  console.log(`  descriptors ${range('fds')} (growth ${fdGrowth}), sockets ${range('sockets')}, event-loop delay p99 ${range('eventLoopDelayP99Ms')} ms, data folder ${range('dataFolderMb')} MB`);
  if (floodRate > 0) {
    const flooded = await inspection('GET', `/sessions/${live.sessionId}`);
    const kept = await inspection('GET', `/sessions/${live.sessionId}/findings?limit=1&offset=0`);
    console.log(`  the flood (${floodRate} hostile datagrams/s beside the feed): the session received ${flooded?.received?.chunks} datagrams (socket drops ${flooded?.received?.socketDrops}, application loss ${flooded?.received?.applicationLoss}); findings kept by REST ${kept?.total}`);
  }
  console.log(`  requests ${counts.requests}, failed ${counts.failed}; viewer connections ${counts.viewerConnects} (${counts.viewerFailures} failed); relay datagrams received ${receivers.map((r) => r.datagrams).join(', ')}`);
  writeFileSync(join(out, 'soak-summary.json'), JSON.stringify({ minutes, samples: samples.length, rssPerHour, heapPerHour, outsideV8PerHour, fdGrowth, counts, relayDatagrams: receivers.map((r) => r.datagrams), failures }, null, 2));
} catch (error) {
  failures.push(`soak: ${error.stack ?? error}`);
} finally {
  finishing = true;
  stopping = true;
  for (const child of children.slice(1)) child.kill('SIGTERM');
  service.kill('SIGTERM');
  await exited;
  rmSync(work, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.log(`soak FAILED:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('soak passed');
process.exit(0);

/** One reading of the service process (from /proc and the memory probe's latest line) and of the data folder. */
function sample(minute) {
  const pid = service.pid;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssMb = Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 102.4) / 10;
  const fdNames = readdirSync(`/proc/${pid}/fd`).map((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      return '';
    }
  });
  const probe = existsSync(probeFile) ? JSON.parse(readFileSync(probeFile, 'utf8').trim().split('\n').at(-1)) : {};
  return {
    minute,
    rssMb,
    heapUsedMb: probe.heapUsed ?? NaN,
    heapTotalMb: probe.heapTotal ?? NaN,
    arrayBuffersMb: probe.arrayBuffers ?? NaN,
    externalMb: probe.external ?? NaN,
    // What RSS holds besides V8's heap and the memory it knows of outside it: code, the allocator's
    // arenas, sql.js's WebAssembly memory. A slope here and none in the heap points there.
    outsideV8Mb: Math.round((rssMb - (probe.heapTotal ?? NaN) - (probe.external ?? NaN)) * 10) / 10,
    fds: fdNames.length,
    sockets: fdNames.filter((name) => name.startsWith('socket:')).length,
    eventLoopDelayP99Ms: probe.eventLoopDelayP99Ms ?? NaN,
    dataFolderMb: Math.round(folderBytes(dataDir) / 104_857.6) / 10,
  };
}

function folderBytes(path) {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    try {
      total += entry.isDirectory() ? folderBytes(full) : statSync(full).size;
    } catch {
      // Gone between the listing and the stat (a temporary file renamed).
    }
  }
  return total;
}

/** Least-squares slope of `key` against the minute. */
function slopePerMinute(points, key) {
  if (points.length < 2) return 0;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.minute, 0) / n;
  const my = points.reduce((s, p) => s + p[key], 0) / n;
  const sxy = points.reduce((s, p) => s + (p.minute - mx) * (p[key] - my), 0);
  const sxx = points.reduce((s, p) => s + (p.minute - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

/** soak.html: one uPlot chart per figure, the library inlined (no network needed to look at it). */
function plotPage(points) {
  const uplot = readFileSync(join(repo, 'node_modules/uplot/dist/uPlot.iife.min.js'), 'utf8');
  const css = readFileSync(join(repo, 'node_modules/uplot/dist/uPlot.min.css'), 'utf8');
  const keys = ['rssMb', 'heapUsedMb', 'heapTotalMb', 'arrayBuffersMb', 'externalMb', 'outsideV8Mb', 'fds', 'sockets', 'eventLoopDelayP99Ms', 'dataFolderMb'];
  const data = { minute: points.map((p) => p.minute), ...Object.fromEntries(keys.map((k) => [k, points.map((p) => p[k])])) };
  return `<!doctype html><meta charset="utf-8"><title>klvscope soak</title><style>${css}</style><script>${uplot}</script><body><h1>klvscope soak, ${minutes} min</h1><script>
const data = ${JSON.stringify(data)};
for (const key of ${JSON.stringify(keys)}) {
  const div = document.createElement('div'); document.body.append(div);
  new uPlot({ title: key, width: 900, height: 220, scales: { x: { time: false } }, series: [{ label: 'minute' }, { label: key, stroke: 'steelblue' }] }, [data.minute, data[key]], div);
}
</script>`;
}

/**
 * The flood's process: hostile datagrams (test-support/hostile-datagrams.ts) to the group at `rate` a
 * second until killed, paced in 10 ms steps on the clock; a pool made once, as bench/live-flood.mjs does.
 */
async function runFlood({ host, port, rate }) {
  const { hostileDatagrams } = await import('../test-support/hostile-datagrams.ts');
  const made = hostileDatagrams(35);
  const pool = Array.from({ length: 5_000 }, () => made.next().value.bytes);
  const socket = createSocket('udp4');
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
  socket.setMulticastInterface('127.0.0.1');
  process.once('SIGTERM', () => process.exit(0));
  const startedAt = performance.now();
  for (let sent = 0; ; ) {
    const due = Math.floor(((performance.now() - startedAt) / 1_000) * rate);
    const sends = [];
    for (; sent < due; sent++) sends.push(new Promise((done) => socket.send(pool[sent % pool.length], port, host, done)));
    await Promise.all(sends);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The sender process: replays each feed to its group in a loop until killed. */
async function runSender(feeds) {
  const { replayFile } = await import('@klvscope/adapters');
  const controller = new AbortController();
  process.once('SIGTERM', () => controller.abort());
  await Promise.all(feeds.map((feed) => replayFile(feed.file, feed.url, { loop: true, signal: controller.signal })));
  process.exit(0);
}
