// `npm run bench:live-flood [-- --repo PATH --seconds 25 --rate 20000 --node-option FLAG ...]`: issue 35's flood, full size.
// `klvscope serve` (from the TypeScript sources of --repo, default this one, through tsx) runs a live
// session on udp://127.0.0.1:PORT; this process sends it hostile datagrams (test-support/hostile-datagrams.ts:
// random bytes of every size up to 65,000, sync byte and noise, changed TS, RTP over short TS, clean TS)
// at --rate a second for --seconds, to 127.0.0.1 only. Printed: the datagrams sent, the service's RSS
// (VmRSS of /proc/PID/status) before, at its peak and 5 s after the feed stopped, where the peak was
// (V8's heap against the array buffers outside it, from bench/memory-probe.mjs), and the session's
// findings, records and what its REST surface keeps. --repo lets the same flood measure another checkout
// (main) for a before/after comparison; --node-option passes a flag to the service's node (repeatable).
// --bundle runs the built command (gateway/bin/klvscope.cjs, after `npm run build`) as `npm start` runs it
// (node's options and glibc's allocator settings of package.json's start script), without tsx's compiler
// in the process. MALLOC_* and GLIBC_TUNABLES of the calling shell are passed on (and win), to measure others.
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freeUdpPort } from '../test-support/free-udp-port.ts';
import { hostileDatagrams } from '../test-support/hostile-datagrams.ts';
import { npmStartOptions } from './npm-start-options.mjs';

const { values } = parseArgs({ options: { repo: { type: 'string' }, seconds: { type: 'string', default: '25' }, rate: { type: 'string', default: '20000' }, 'node-option': { type: 'string', multiple: true, default: [] }, bundle: { type: 'boolean', default: false } } });
const repo = resolve(values.repo ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const seconds = Number(values.seconds);
const rate = Number(values.rate);
/** Datagrams made once and sent in turn: making 65,000 random bytes per datagram would slow the sender, not the service. */
const POOL = 20_000;

const dataDir = mkdtempSync(join(tmpdir(), 'klvscope-live-flood-'));
const tsx = import.meta.resolve('tsx');
const probeFile = join(dataDir, '..', `${dataDir.split('/').pop()}-memory.jsonl`);
const probe = join(dirname(fileURLToPath(import.meta.url)), 'memory-probe.mjs');
const command = values.bundle ? [join(repo, 'gateway/bin/klvscope.cjs')] : ['--conditions=source', '--import', tsx, join(repo, 'gateway/src/cli/main.ts')];
// The bundle runs as `npm start` runs the services: its node options and allocator settings (package.json).
const startOptions = values.bundle ? npmStartOptions(repo) : { env: {}, nodeOptions: [] };
const server = spawn(process.execPath, [...startOptions.nodeOptions, ...values['node-option'], '--import', probe, ...command, 'serve', '--data-dir', dataDir, '--port', '0'], {
  cwd: repo,
  env: { PATH: process.env.PATH, KLVSCOPE_MEMORY_PROBE: probeFile, ...startOptions.env, ...allocatorSettings() },
  stdio: ['ignore', 'pipe', 'ignore'],
});
/** glibc's allocator settings of this shell (MALLOC_*_, GLIBC_TUNABLES), passed on so that their effect on the peak can be measured. */
function allocatorSettings() {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('MALLOC_') || name === 'GLIBC_TUNABLES'));
}
const rssMb = () => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
};
try {
  const base = await new Promise((resolveUrl, reject) => {
    createInterface({ input: server.stdout }).once('line', (line) => resolveUrl(/on (http:\/\/\S+)/.exec(line)?.[1] ?? ''));
    server.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  const key = readFileSync(join(dataDir, 'api-key'), 'utf8').trim();
  const call = async (method, path, body) => {
    const response = await fetch(`${base}${path}`, { method, headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const pool = [];
  const datagrams = hostileDatagrams(35);
  for (let i = 0; i < POOL; i++) pool.push(datagrams.next().value.bytes);

  const port = await freeUdpPort();
  const session = await call('POST', '/sessions/live', { source: `udp://127.0.0.1:${port}` });
  await new Promise((done) => setTimeout(done, 1_000));
  const before = rssMb();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 250);
  const socket = createSocket('udp4');
  let sent = 0;
  const startedAt = performance.now();
  const total = Math.round(seconds * rate);
  // Paced in 10 ms steps on the clock, so a slow step is caught up, never drifted.
  while (sent < total && performance.now() - startedAt < seconds * 1_000 + 5_000) {
    const due = Math.min(total, Math.floor(((performance.now() - startedAt) / 1_000) * rate));
    const sends = [];
    for (; sent < due; sent++) sends.push(new Promise((done) => socket.send(pool[sent % POOL], port, '127.0.0.1', done)));
    await Promise.all(sends);
    await new Promise((done) => setTimeout(done, 10));
  }
  const sendSeconds = (performance.now() - startedAt) / 1_000;
  socket.close();
  const atEnd = rssMb();
  await new Promise((done) => setTimeout(done, 5_000));
  clearInterval(sampler);
  const after = rssMb();
  const state = await call('GET', `/sessions/${session.sessionId}`);
  const rest = await call('GET', `/sessions/${session.sessionId}/findings?limit=1`);
  const stopped = await call('DELETE', '/sessions/active');
  const afterStop = rssMb();
  console.log(`live flood on ${repo}${values.bundle ? ' (the bundle)' : ' (the sources through tsx)'}${values['node-option'].length > 0 ? ` (node ${values['node-option'].join(' ')})` : ''}`);
  console.log(`  sent ${sent} datagrams in ${sendSeconds.toFixed(1)} s (${Math.round(sent / sendSeconds)}/s); the session received ${state.received.chunks}, socket drops ${state.received.socketDrops}, application loss ${state.received.applicationLoss}`);
  console.log(`  RSS: ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at peak, ${atEnd.toFixed(0)} MB when the feed stopped, ${after.toFixed(0)} MB 5 s later, ${afterStop.toFixed(0)} MB after Stop`);
  const samples = existsSync(probeFile) ? readFileSync(probeFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line)) : [];
  const top = samples.reduce((best, sample) => (sample.rss > (best?.rss ?? 0) ? sample : best), null);
  if (top) console.log(`  at the peak sample: RSS ${top.rss} MB = V8 heap ${top.heapTotal} MB (${top.heapUsed} used) + array buffers ${top.arrayBuffers} MB + other external ${(top.external - top.arrayBuffers).toFixed(1)} MB + the rest (code, allocator) ${(top.rss - top.heapTotal - top.external).toFixed(1)} MB`);
  console.log(`  findings ${stopped.counts.findings}, records ${stopped.counts.records ?? '(none: one per finding)'}, kept by REST ${rest.total}; by check ${JSON.stringify(stopped.counts.byCheck)}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((done) => (server.exitCode === null ? server.once('exit', done) : done()));
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(probeFile, { force: true });
}
