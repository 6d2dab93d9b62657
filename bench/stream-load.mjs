// `npm run bench:stream` (issue 22): the streaming module passing a 10 Mb/s multicast source to 50
// WebSocket viewers, inside a private network namespace made for the run (unshare --net: loopback
// only, 224.0.0.0/4 routed to it, so no datagram leaves the machine). Needs root (or user
// namespaces) and iproute2.
//
// Four processes, so that each one's CPU and memory are its own: this one (the namespace, the
// generated stream, the measures), the module (stream-module-child.mjs: startStreamingServer on
// the built gateway, its source the multicast group), the viewers (stream-viewers-child.mjs: 50
// `ws` clients that check every byte they get against the file sent) and the sender
// (stream-sender-child.mjs: the adapters' replayFile, paced by the stream's PCR, for
// STREAM_SECONDS, default 30). Two phases, each with fresh processes: the 50 viewers alone, then
// the 50 plus one that never reads. Printed: bytes lost to the viewers that keep up (target 0),
// the module's CPU (target < 50 % of a core) against the sender's, its RSS (peak, and growth from
// 5 s to the end: flat), the latency from a datagram's arrival to its bytes handed to the viewers'
// sockets (onViewerSend; target p99 < 20 ms), and whether the viewer that never reads was dropped
// with the module's memory bounded and the other 50 unaffected. A third phase measures
// glass-to-glass latency in headless Chromium (stream-glass.mjs; the module plays its built-in
// demo), or says why it cannot. STREAM_RUNS=N repeats the phases N times and prints medians and
// ranges. A target missed is reported, not thrown: exit 0.
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTransportStream } from '../core/dist/index.js';
import { measureGlassToGlass } from './stream-glass.mjs';
import { runInsidePrivateNetwork } from './private-network.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.STREAM_SECONDS ?? 30);
const VIEWERS = Number(process.env.STREAM_VIEWERS ?? 50);
const RUNS = Number(process.env.STREAM_RUNS ?? 1);
/** Video the glass-to-glass page buffers before it plays (unset: the viewer's, web/src/viewer/player-settings.ts). */
const GLASS_START_BUFFER_S = process.env.STREAM_GLASS_START_BUFFER_S === undefined ? undefined : Number(process.env.STREAM_GLASS_START_BUFFER_S);
const BITRATE = 10_000_000;
const GROUP = 'udp://239.255.77.2:6002';
/** The module's default bound on a viewer's unsent bytes (streaming-config.ts). */
const MAX_VIEWER_BUFFER_BYTES = 8 * 1024 * 1024;
/** RSS from this far into the sending on counts for "flat" (before it: start-up, JIT, buffers growing to their size). */
const WARM_SECONDS = 5;
/** After the sender stops: time for the last bytes to reach the viewers. */
const DRAIN_MS = 1_500;

runInsidePrivateNetwork(import.meta.url, 'bench:stream');

const work = mkdtempSync(join(tmpdir(), 'klvscope-stream-bench-'));
try {
  // Longer than the sending, so the sender never loops: every viewer's bytes are one span of the file.
  const file = join(work, 'feed.ts');
  writeFileSync(file, generateTransportStream({ durationSeconds: SECONDS + 10, bitrate: BITRATE, seed: 4, klv: {} }).bytes);
  const runs = [];
  for (let run = 1; run <= RUNS; run++) {
    const alone = await runPhase(file, false);
    const withSlow = await runPhase(file, true);
    const glass = await runGlassPhase();
    runs.push({ alone, withSlow, glass });
    printRun(run, alone, withSlow, glass);
  }
  printSummary(runs);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** One phase: fresh module, viewers and sender; the figures of the sending window. */
async function runPhase(file, slow) {
  const children = [];
  try {
    const module = fork(join(here, 'stream-module-child.mjs'), [GROUP, mkdtempSync(join(work, 'module-'))], { execArgv: ['--v8-pool-size=0'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    children.push(module);
    let moduleLog = '';
    module.stderr.on('data', (chunk) => (moduleLog += chunk.toString()));
    const { url } = await nextMessage(module, 'ready');

    const viewers = fork(join(here, 'stream-viewers-child.mjs'), [url, file, String(VIEWERS), slow ? '1' : '0'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(viewers);
    await nextMessage(viewers, 'connected');
    const connected = await ask(module, 'status');
    if (connected.viewers !== VIEWERS + (slow ? 1 : 0)) throw new Error(`the module counts ${connected.viewers} viewers, not ${VIEWERS + (slow ? 1 : 0)}`);

    module.send({ type: 'measure' });
    const moduleCpuStart = cpuSeconds(module.pid);
    const viewersCpuStart = cpuSeconds(viewers.pid);
    const sender = fork(join(here, 'stream-sender-child.mjs'), [file, `${GROUP}?interface=127.0.0.1`, String(SECONDS)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(sender);
    const sendStart = performance.now();
    // One RSS sample a second from /proc (the kernel's figure, whatever the module's event loop is doing).
    const rssSamples = [];
    const sampler = setInterval(() => rssSamples.push({ atSeconds: (performance.now() - sendStart) / 1000, bytes: rssBytes(module.pid) }), 1_000);
    const done = await nextMessage(sender, 'done', SECONDS * 1000 + 30_000);
    clearInterval(sampler);
    const sendingSeconds = (done.endedAt - done.startedAt) / 1000;
    const moduleCpu = cpuSeconds(module.pid) - moduleCpuStart;
    const viewersCpu = cpuSeconds(viewers.pid) - viewersCpuStart;
    await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));

    const moduleReport = await ask(module, 'report');
    const viewerReport = await ask(viewers, 'report');
    const peakRssBytes = vmHwmBytes(module.pid);
    if (moduleLog.trim() !== '') console.error(`bench:stream: the module's log:\n${moduleLog.trim()}`);
    return summarise({ slow, done, sendingSeconds, moduleCpu, viewersCpu, moduleReport, viewerReport, rssSamples, peakRssBytes });
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)));
  }
}

/** Glass-to-glass: the module plays its built-in demo (the real H.264 clip, item 2 the wall clock) to headless Chromium. */
async function runGlassPhase() {
  const module = fork(join(here, 'stream-module-child.mjs'), ['demo', mkdtempSync(join(work, 'module-'))], { execArgv: ['--v8-pool-size=0'], stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  try {
    const { url } = await nextMessage(module, 'ready');
    const result = await measureGlassToGlass(url, SECONDS, { startBufferS: GLASS_START_BUFFER_S });
    if (result.leftOut) return result;
    // From WARM_SECONDS after the first frame on: the player's start (its first buffer filling, latency chasing settling) left out.
    const firstShownAt = result.samples[0]?.[0] ?? 0;
    const steadySamples = result.samples.filter(([shownAt]) => shownAt - firstShownAt >= WARM_SECONDS * 1000);
    const steady = steadySamples.map(([, ms]) => ms).sort((a, b) => a - b);
    const ahead = steadySamples.map(([, , aheadMs]) => aheadMs).sort((a, b) => a - b);
    const at = (sorted, q) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);
    return { ...result, samples: undefined, steadyFrames: steady.length, p50: at(steady, 0.5), p99: at(steady, 0.99), max: steady.at(-1) ?? NaN, min: steady[0] ?? NaN, aheadP50: at(ahead, 0.5) };
  } finally {
    if (module.exitCode === null && module.signalCode === null) {
      module.kill('SIGTERM');
      await new Promise((resolve) => module.once('exit', resolve));
    }
  }
}

function summarise({ slow, done, sendingSeconds, moduleCpu, viewersCpu, moduleReport, viewerReport, rssSamples, peakRssBytes }) {
  // The sender sends the file from its first byte, whole 188-byte packets: it sent [0, bytes).
  const sentBytes = done.stats.bytes;
  let lostBytes = 0;
  let wrongBytes = 0;
  let viewersWithLoss = 0;
  let neverStarted = 0;
  let closedEarly = 0;
  const maxGaps = [];
  for (const viewer of viewerReport.viewers) {
    if (viewer.start < 0) {
      neverStarted++;
      continue;
    }
    const lost = sentBytes - viewer.start - viewer.matchedBytes;
    lostBytes += lost;
    wrongBytes += viewer.wrongBytes;
    if (lost !== 0 || viewer.wrongBytes !== 0) viewersWithLoss++;
    if (viewer.closeCode !== null) closedEarly++;
    maxGaps.push(viewer.maxGapMs);
  }
  maxGaps.sort((a, b) => a - b);
  const warm = rssSamples.filter((s) => s.atSeconds >= WARM_SECONDS);
  const rssAtWarm = warm[0]?.bytes ?? NaN;
  const rssFinal = rssSamples.at(-1)?.bytes ?? NaN;
  const dropSeconds = moduleReport.droppedAt === null ? null : (moduleReport.droppedAt - done.startedAt) / 1000;
  // With the viewer that never reads, its buffer grows until it is dropped: flat is asked of the time after.
  const afterDrop = dropSeconds === null ? [] : rssSamples.filter((s) => s.atSeconds >= Math.max(WARM_SECONDS, dropSeconds + 1));
  return {
    slow,
    sendingSeconds,
    sentBytes,
    sendRateMbps: (sentBytes * 8) / sendingSeconds / 1e6,
    senderMaxLatenessMs: done.stats.maxLatenessMs,
    sendErrors: done.stats.sendErrors,
    viewers: viewerReport.viewers.length,
    neverStarted,
    closedEarly,
    lostBytes,
    wrongBytes,
    viewersWithLoss,
    maxGapWorstMs: maxGaps.at(-1) ?? NaN,
    moduleLoopDelayMaxMs: moduleReport.eventLoopDelayMaxMs,
    viewersLoopDelayMaxMs: viewerReport.eventLoopDelayMaxMs,
    moduleCpuPercent: (moduleCpu / sendingSeconds) * 100,
    senderCpuPercent: (done.cpuSeconds / sendingSeconds) * 100,
    viewersCpuPercent: (viewersCpu / sendingSeconds) * 100,
    rssAtWarmMB: rssAtWarm / 1e6,
    rssFinalMB: rssFinal / 1e6,
    rssPeakMB: peakRssBytes / 1e6,
    rssGrowthMB: (rssFinal - rssAtWarm) / 1e6,
    rssGrowthAfterDropMB: afterDrop.length < 2 ? NaN : (rssFinal - afterDrop[0].bytes) / 1e6,
    latency: moduleReport.beforeDrop,
    latencyAfterDrop: moduleReport.afterDrop,
    dropped: moduleReport.dropped,
    dropSeconds,
    viewersAtEnd: moduleReport.viewers,
  };
}

function printRun(run, alone, withSlow, glass) {
  console.log(`run ${run}/${RUNS}: ${SECONDS} s at ${(BITRATE / 1e6).toFixed(0)} Mb/s to ${VIEWERS} viewers, node ${process.version}, private network namespace`);
  for (const phase of [alone, withSlow]) {
    const latency = phase.slow ? `before the drop p50 ${ms(phase.latency.p50)} p99 ${ms(phase.latency.p99)} max ${ms(phase.latency.max)}, after p50 ${ms(phase.latencyAfterDrop.p50)} p99 ${ms(phase.latencyAfterDrop.p99)} max ${ms(phase.latencyAfterDrop.max)}` : `p50 ${ms(phase.latency.p50)} p99 ${ms(phase.latency.p99)} max ${ms(phase.latency.max)}`;
    console.log(`  ${phase.slow ? '+ 1 that never reads' : 'viewers alone       '}  sent ${(phase.sentBytes / 1e6).toFixed(1)} MB (${phase.sendRateMbps.toFixed(2)} Mb/s, ${phase.sendErrors} send errors), lost ${phase.lostBytes} B (${phase.viewersWithLoss} viewers), wrong ${phase.wrongBytes} B, never started ${phase.neverStarted}, closed ${phase.closedEarly}; cpu module ${phase.moduleCpuPercent.toFixed(1)} %, sender ${phase.senderCpuPercent.toFixed(1)} %, viewers ${phase.viewersCpuPercent.toFixed(1)} %; rss ${phase.rssAtWarmMB.toFixed(1)} -> ${phase.rssFinalMB.toFixed(1)} MB, peak ${phase.rssPeakMB.toFixed(1)} MB; latency ${latency} ms; worst pause at a viewer ${ms(phase.maxGapWorstMs)} ms; worst lateness: sender ${ms(phase.senderMaxLatenessMs)}, module's event loop ${ms(phase.moduleLoopDelayMaxMs)}, viewers' ${ms(phase.viewersLoopDelayMaxMs)} ms${phase.slow ? `; dropped ${phase.dropped} at ${phase.dropSeconds?.toFixed(1) ?? 'never'} s` : ''}`);
  }
  if (glass.leftOut) console.log(`  glass-to-glass        left out: ${glass.leftOut}`);
  else console.log(`  glass-to-glass        ${glass.size} demo, ${glass.frames} frames on screen (${glass.droppedFrames} dropped by the player), ${glass.matched} with their metadata packet, ${glass.unmatched} without; from ${WARM_SECONDS} s on (${glass.steadyFrames} frames): p50 ${ms(glass.p50)} p99 ${ms(glass.p99)} min ${ms(glass.min)} max ${ms(glass.max)} ms, of which video buffered in the player p50 ${ms(glass.aheadP50)} ms${glass.error ? `; page error: ${glass.error}` : ''}`);
}

function printSummary(runs) {
  const cell = (values, digits = 1) => {
    const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
    if (finite.length === 0) return 'n/a';
    const median = finite[Math.floor(finite.length / 2)];
    return finite.length === 1 ? median.toFixed(digits) : `${median.toFixed(digits)} (${finite[0].toFixed(digits)}–${finite.at(-1).toFixed(digits)})`;
  };
  for (const r of runs) for (const phase of [r.alone, r.withSlow]) phase.cpuRatio = phase.moduleCpuPercent / phase.senderCpuPercent;
  // [label, key, digits, target, only with the viewer that never reads]
  const rows = [
    ['bytes lost to viewers that keep up', 'lostBytes', 0, '0'],
    ['wrong bytes at those viewers', 'wrongBytes', 0, '0'],
    ['viewers with a loss', 'viewersWithLoss', 0, '0'],
    ['source rate sent, Mb/s', 'sendRateMbps', 2, ''],
    ['module CPU, % of a core', 'moduleCpuPercent', 1, '< 50'],
    ['sender CPU (baseline), % of a core', 'senderCpuPercent', 1, ''],
    ['module CPU / sender CPU', 'cpuRatio', 2, ''],
    ['viewers process CPU, % of a core', 'viewersCpuPercent', 1, ''],
    [`module RSS at ${WARM_SECONDS} s, MB`, 'rssAtWarmMB', 1, ''],
    ['module RSS at the end, MB', 'rssFinalMB', 1, ''],
    [`module RSS growth ${WARM_SECONDS} s -> end, MB`, 'rssGrowthMB', 1, 'flat'],
    ['  growth from 1 s after the drop, MB', 'rssGrowthAfterDropMB', 1, 'flat', true],
    ['module peak RSS (VmHWM), MB', 'rssPeakMB', 1, ''],
    ["arrival -> viewers' sockets p50, ms", 'latency.p50', 2, ''],
    ["arrival -> viewers' sockets p99, ms", 'latency.p99', 2, '< 20'],
    ["arrival -> viewers' sockets max, ms", 'latency.max', 2, ''],
    ['  after the drop: p50, ms', 'latencyAfterDrop.p50', 2, '', true],
    ['  after the drop: p99, ms', 'latencyAfterDrop.p99', 2, '< 20', true],
    ['  after the drop: max, ms', 'latencyAfterDrop.max', 2, '', true],
    ['worst pause at a reading viewer, ms', 'maxGapWorstMs', 1, ''],
    ["  sender's worst lateness, ms", 'senderMaxLatenessMs', 1, ''],
    ["  module's worst event-loop delay, ms", 'moduleLoopDelayMaxMs', 1, ''],
    ["  viewers' worst event-loop delay, ms", 'viewersLoopDelayMaxMs', 1, ''],
    ['the one that never reads dropped after, s', 'dropSeconds', 1, '', true],
  ];
  console.log('');
  console.log(`klvscope bench:stream — ${SECONDS} s, ${(BITRATE / 1e6).toFixed(0)} Mb/s multicast source, ${VIEWERS} WebSocket viewers, ${runs.length} run(s)${runs.length > 1 ? ': median (min–max)' : ''}`);
  const header = ['', `${VIEWERS} viewers`, `${VIEWERS} + 1 that never reads`, 'target'];
  const table = [header];
  for (const [label, key, digits, target, slowOnly] of rows) {
    const alone = slowOnly ? '—' : cell(runs.map((r) => pick(r.alone, key)), digits);
    table.push([label, alone, cell(runs.map((r) => pick(r.withSlow, key)), digits), target]);
  }
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i].length)));
  for (const row of table) console.log(`  ${row.map((text, i) => (i === 0 ? text.padEnd(widths[i]) : text.padStart(widths[i]))).join('  ')}`);
  console.log(`  (with the viewer that never reads, the latency rows are until it was dropped, the "after the drop" rows from then on)`);

  // The verdicts, from the medians.
  const median = (values) => {
    const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
    return finite[Math.floor(finite.length / 2)] ?? NaN;
  };
  const all = runs.flatMap((r) => [r.alone, r.withSlow]);
  const verdicts = [
    ['no byte lost to the viewers that keep up', all.every((p) => p.lostBytes === 0 && p.wrongBytes === 0 && p.neverStarted === 0 && p.closedEarly === 0)],
    ['module CPU under 50 % of a core (median)', median(runs.map((r) => r.alone.moduleCpuPercent)) < 50],
    ['arrival -> sockets p99 under 20 ms (median)', median(runs.map((r) => pick(r.alone, 'latency.p99'))) < 20],
    [`module RSS flat (growth from ${WARM_SECONDS} s, or from the drop, under 10 MB, every run)`, runs.every((r) => r.alone.rssGrowthMB < 10 && pick(r.withSlow, 'rssGrowthAfterDropMB') < 10)],
    ['the viewer that never reads dropped, every run', runs.every((r) => r.withSlow.dropped === 1 && r.withSlow.viewersAtEnd === VIEWERS)],
    [`memory bounded with it (peak within ${MAX_VIEWER_BUFFER_BYTES / 2 ** 20} MiB + 16 MB of the phase without)`, runs.every((r) => r.withSlow.rssPeakMB - r.alone.rssPeakMB < MAX_VIEWER_BUFFER_BYTES / 1e6 + 16)],
    ['the other viewers unaffected (no loss; p99 after the drop under 20 ms)', runs.every((r) => r.withSlow.lostBytes === 0 && r.withSlow.wrongBytes === 0 && pick(r.withSlow, 'latencyAfterDrop.p99') < 20)],
  ];
  console.log('');
  for (const [what, met] of verdicts) console.log(`  ${met ? 'met    ' : 'MISSED '} ${what}`);

  console.log('');
  const glass = runs.map((r) => r.glass);
  const leftOut = glass.find((g) => g.leftOut)?.leftOut;
  if (leftOut !== undefined) {
    console.log(`  glass-to-glass in headless Chromium: left out: ${leftOut}`);
    return;
  }
  console.log(`  glass-to-glass in headless Chromium (built-in demo, ${glass[0].size}; item 2 -> frame on screen, from ${WARM_SECONDS} s on; ${glass.map((g) => g.steadyFrames).join(', ')} frames; playing once ${GLASS_START_BUFFER_S === undefined ? "the viewer's start buffer is" : `${GLASS_START_BUFFER_S} s is`} buffered):`);
  console.log(`    p50 ${cell(glass.map((g) => g.p50), 0)} ms (target < 600), p99 ${cell(glass.map((g) => g.p99), 0)} ms, max ${cell(glass.map((g) => g.max), 0)} ms; of it, video buffered in the player ahead of the frame: p50 ${cell(glass.map((g) => g.aheadP50), 0)} ms; frames without their packet ${glass.map((g) => g.unmatched).join(', ')}`);
  const met = median(glass.map((g) => g.p50)) < 600;
  console.log(`  ${met ? 'met    ' : 'MISSED '} glass-to-glass p50 under 600 ms (median)`);
}

function pick(object, key) {
  return key.split('.').reduce((value, part) => value?.[part], object) ?? NaN;
}

function ms(value) {
  return value === null || value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(2);
}

/** The next message of `type` from a forked child; rejects if it exits first or after `timeoutMs`. */
function nextMessage(child, type, timeoutMs = 30_000) {
  const name = child.spawnargs.find((arg) => arg.endsWith('-child.mjs'));
  return new Promise((resolve, reject) => {
    const settle = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (message) => {
      if (message.type !== type) return;
      settle();
      resolve(message);
    };
    const onExit = (code, signal) => {
      settle();
      reject(new Error(`${name} exited (${code ?? signal}) before '${type}'`));
    };
    const timer = setTimeout(() => {
      settle();
      reject(new Error(`${name} sent no '${type}' within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

function ask(child, type) {
  const answer = nextMessage(child, type);
  child.send({ type });
  return answer;
}

/** User plus system CPU seconds of a process so far (/proc/PID/stat, clock ticks of 1/100 s). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A field of /proc/PID/status in bytes (VmRSS: resident now; VmHWM: the most resident since start). */
function statusBytes(pid, field) {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

function rssBytes(pid) {
  return statusBytes(pid, 'VmRSS');
}

function vmHwmBytes(pid) {
  return statusBytes(pid, 'VmHWM');
}
