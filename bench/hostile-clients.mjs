// `npm run bench:hostile`: issue 35's hostile clients at full size against the three services
// (bench/hostile-services-child.mjs: one process, default connection limits, 127.0.0.1 only).
// Scenarios, one after another, each bounded in count and time:
//   slow headers   1,000 connections to the inspection service sending their headers a byte a second
//   stream burst   10,000 WebSocket connects at once to the streaming module's viewers (/stream)
//   live burst     10,000 WebSocket connects at once to the inspection service's tRPC live channel
//   idle viewer    a viewer of /stream that never reads (its TCP socket paused)
// and, through all of them, an upload to the relay at a byte a second and a tRPC subscriber that
// never reads. The hostile connections of a scenario come from 127.0.0.1, the upload and the
// subscriber from 127.0.0.3, and the normal client from 127.0.0.2: three clients to the services,
// each with its own share of a service's connections (connection-shares.ts; all are loopback).
// For each: a normal client's latency (p50/p99 of sequential GETs) before and during
// the attack and the requests it lost, how each hostile connection ended (status or close code, and
// when), and the services' RSS and open descriptors (peak during the attack, from /proc).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { connect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

// Arguments (a smaller trial run): slow clients (default 1,000) and WebSocket connects per burst (default 10,000).
const SLOW_CLIENTS = Number(process.argv[2] ?? 1_000);
const BURST = Number(process.argv[3] ?? 10_000);
const MAX_SCENARIO_MS = 40_000;
const IDLE_VIEWER_MAX_MS = 180_000;

const dataDir = mkdtempSync(join(tmpdir(), 'klvscope-bench-hostile-'));
const child = spawn(process.execPath, ['--conditions=source', '--import=tsx', 'bench/hostile-services-child.mjs', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
const services = JSON.parse(await new Promise((resolve, reject) => {
  createInterface({ input: child.stdout }).once('line', resolve);
  child.once('exit', (code) => reject(new Error(`the services exited with ${code}`)));
}));
const port = (url) => Number(new URL(url).port);
// The inspection service's URL names its API prefix (/api/v1); its live channel is on the same origin.
const inspectionOrigin = new URL(services.inspection).origin;
const keyHeader = { 'x-api-key': services.key };
const NORMAL_ADDRESS = '127.0.0.2';
const BACKGROUND_ADDRESS = '127.0.0.3';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const elapsed = (since) => Math.round(performance.now() - since);

/** RSS (MB) and open descriptors of the services' process. */
function processFigures() {
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
  return { rssMb: Math.round(rssKb / 1024), fds: readdirSync(`/proc/${child.pid}/fd`).length };
}

/** A GET from the normal client's own address, kept alive as fetch would; its status, once the body is read. */
const normalAgent = new Agent({ keepAlive: true, localAddress: NORMAL_ADDRESS });
function getStatus(url, headers) {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers, agent: normalAgent, timeout: 10_000 }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode));
      response.once('error', reject);
    });
    request.once('timeout', () => request.destroy(new Error('timed out')));
    request.once('error', reject);
  });
}

/** Sequential GETs of `url` until `stop()`: latency percentiles (ms) and the requests that got no 2xx. */
function normalClient(url, headers = {}) {
  const latencies = [];
  let failed = 0;
  let running = true;
  const peak = { rssMb: 0, fds: 0 };
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const status = await getStatus(url, headers);
        if (status >= 200 && status < 300) latencies.push(performance.now() - started);
        else failed++;
      } catch {
        failed++;
      }
      const figures = processFigures();
      peak.rssMb = Math.max(peak.rssMb, figures.rssMb);
      peak.fds = Math.max(peak.fds, figures.fds);
      await sleep(50);
    }
  })();
  return async () => {
    running = false;
    await loop;
    latencies.sort((a, b) => a - b);
    const at = (q) => (latencies.length === 0 ? null : Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 10) / 10);
    return { answered: latencies.length, failed, p50Ms: at(0.5), p99Ms: at(0.99), peak };
  };
}

/** Counts of each way the hostile connections ended, with the first and last time (s) of each. */
function tally(endings) {
  const byKind = {};
  for (const { kind, ms } of endings) {
    const entry = (byKind[kind] ??= { count: 0, firstS: Infinity, lastS: 0 });
    entry.count++;
    entry.firstS = Math.min(entry.firstS, Math.round(ms / 100) / 10);
    entry.lastS = Math.max(entry.lastS, Math.round(ms / 100) / 10);
  }
  return byKind;
}

async function scenario(name, normalUrl, attack, headers = {}) {
  const before = normalClient(normalUrl, headers);
  await sleep(3_000);
  const baseline = await before();
  const during = normalClient(normalUrl, headers);
  const started = performance.now();
  const endings = await attack();
  const attacked = await during();
  const result = { scenario: name, seconds: Math.round(elapsed(started) / 100) / 10, normalBefore: baseline, normalDuring: attacked, hostile: tally(endings), after: processFigures() };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return result;
}

/** 1,000 connections sending a request's headers a byte a second; each ends with the service's answer or close. */
async function slowHeaders() {
  const request = 'GET /api/v1/config HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' + 'x'.repeat(100);
  const endings = [];
  const clients = await Promise.all(
    Array.from({ length: SLOW_CLIENTS }, () => new Promise((resolve) => {
      const started = performance.now();
      let text = '';
      const socket = connect({ host: '127.0.0.1', port: port(services.inspection) }, () => resolve(client));
      const client = { socket, closed: false };
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => (text += chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        client.closed = true;
        const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
        const code = /"code":"([A-Z_]+)"/.exec(text)?.[1];
        endings.push({ kind: status ? `${status} ${code ?? ''}`.trim() : 'closed without an answer', ms: elapsed(started) });
      });
    })),
  );
  let sent = 0;
  const drip = setInterval(() => {
    for (const client of clients) if (!client.closed) client.socket.write(request[sent % request.length]);
    sent++;
  }, 1_000);
  const deadline = performance.now() + MAX_SCENARIO_MS;
  while (endings.length < SLOW_CLIENTS && performance.now() < deadline) await sleep(200);
  clearInterval(drip);
  for (const client of clients) if (!client.closed) client.socket.destroy();
  await sleep(100);
  return [...endings, ...Array.from({ length: SLOW_CLIENTS - endings.length }, () => ({ kind: 'still open at the bound (cut by the bench)', ms: MAX_SCENARIO_MS }))];
}

/** 10,000 WebSocket connects at once; each ends refused (HTTP status), closed by the service (code), or held open (closed by the bench after 3 s). */
async function burst(url, headers) {
  const endings = [];
  const sockets = [];
  const outcomes = Array.from({ length: BURST }, () => new Promise((resolve) => {
    const started = performance.now();
    const socket = new WebSocket(url, { headers });
    sockets.push(socket);
    let settled = false;
    const end = (kind) => {
      if (settled) return;
      settled = true;
      endings.push({ kind, ms: elapsed(started) });
      resolve();
    };
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => end(`HTTP ${response.statusCode} ${/"code":"([A-Z_]+)"/.exec(body)?.[1] ?? ''}`.trim()));
      response.on('error', () => end(`HTTP ${response.statusCode}`));
    });
    socket.once('open', () => {
      // Held open 3 s: admitted, unless the service closes it first.
      setTimeout(() => end('admitted, open after 3 s'), 3_000);
    });
    socket.once('close', (code) => end(`closed by the service ${code}`));
    socket.once('error', (error) => end(`error ${error.code ?? error.message}`));
  }));
  await Promise.race([Promise.all(outcomes), sleep(MAX_SCENARIO_MS)]);
  for (const socket of sockets) socket.terminate();
  await sleep(500);
  return endings.length === BURST ? endings : [...endings, ...Array.from({ length: BURST - endings.length }, () => ({ kind: 'unsettled at the bound', ms: MAX_SCENARIO_MS }))];
}

/** A viewer that never reads: its end is the module's viewer count falling back. */
async function idleViewer() {
  const started = performance.now();
  const socket = new WebSocket(`${services.streaming.replace(/^http/, 'ws')}/stream`);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  socket._socket.pause();
  const viewers = async () => (await (await fetch(`${services.streaming}/info`)).json()).activeConnections;
  // The module's bound is unsent data (8 MiB by default) past what the kernel buffers: at the demo's bitrate, minutes.
  const deadline = performance.now() + IDLE_VIEWER_MAX_MS;
  while ((await viewers()) > 0 && performance.now() < deadline) await sleep(250);
  const ended = (await viewers()) === 0 ? 'dropped by the module' : 'still a viewer at the bound';
  socket.terminate();
  return [{ kind: ended, ms: elapsed(started) }];
}

/** Started before the scenarios, judged after them: an upload at a byte a second, and a tRPC subscriber that never reads. */
function background() {
  const started = performance.now();
  const upload = { kind: 'still open', ms: 0 };
  let text = '';
  const uploader = connect({ host: '127.0.0.1', port: port(services.relay), localAddress: BACKGROUND_ADDRESS }, () => {
    uploader.write(`POST /api/platforms HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${services.key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`);
  });
  uploader.setEncoding('utf8');
  uploader.on('data', (chunk) => (text += chunk));
  uploader.on('error', () => undefined);
  uploader.on('close', () => {
    const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
    Object.assign(upload, { kind: status ? `${status} ${/"code":"([A-Z_]+)"/.exec(text)?.[1] ?? ''}`.trim() : 'closed without an answer', ms: elapsed(started) });
  });
  const drip = setInterval(() => !uploader.destroyed && uploader.write(' '), 1_000);
  const subscriber = new WebSocket(`${inspectionOrigin.replace(/^http/, 'ws')}/api/v1/live`, { headers: keyHeader, localAddress: BACKGROUND_ADDRESS });
  let subscribed = false;
  subscriber.on('error', () => undefined);
  subscriber.once('open', () => {
    subscribed = true;
    subscriber.send(JSON.stringify({ id: 1, method: 'subscription', params: { path: 'statistics', input: {} } }));
    subscriber._socket.pause();
  });
  const judge = async () => {
    clearInterval(drip);
    uploader.destroy();
    // The paused subscriber cannot see its end: resumed, it reads what came, its close among it.
    const closed = new Promise((resolve) => subscriber.once('close', (code) => resolve(`closed by the service ${code}`)));
    subscriber._socket?.resume();
    const subscription = !subscribed ? 'never opened' : subscriber.readyState === WebSocket.CLOSED ? 'closed' : await Promise.race([closed, sleep(2_000).then(() => 'still open')]);
    subscriber.terminate();
    return { upload, subscriber: { kind: subscription, afterS: Math.round(elapsed(started) / 100) / 10 } };
  };
  return { uploadEnded: () => upload.ms > 0, judge };
}

const load = () => loadavg().map((l) => Math.round(l * 100) / 100);
const report = { startedLoad: load(), idle: processFigures(), scenarios: [] };
try {
  const backgroundClients = background();
  const health = `${services.inspection}/config`;
  report.scenarios.push(await scenario(`slow headers x${SLOW_CLIENTS} (inspection)`, health, slowHeaders, keyHeader));
  report.scenarios.push(await scenario(`WebSocket burst x${BURST} (streaming /stream)`, `${services.streaming}/info`, () => burst(`${services.streaming.replace(/^http/, 'ws')}/stream`, {})));
  report.scenarios.push(await scenario(`WebSocket burst x${BURST} (inspection live channel)`, health, () => burst(`${inspectionOrigin.replace(/^http/, 'ws')}/api/v1/live`, keyHeader), keyHeader));
  report.scenarios.push(await scenario('a viewer that never reads (streaming /stream)', `${services.streaming}/info`, idleViewer));
  // The upload's bound is the request timeout (60 s): waited for, bounded.
  const deadline = performance.now() + 70_000;
  while (performance.now() < deadline) {
    await sleep(1_000);
    if (backgroundClients.uploadEnded()) break;
  }
  report.background = await backgroundClients.judge();
  report.endedLoad = load();
  report.end = processFigures();
} finally {
  normalAgent.destroy();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify({ summary: report })}\n`);
