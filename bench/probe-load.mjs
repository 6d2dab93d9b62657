// `npm run bench:probes`: live probes and their hub on this machine (docs/fleet.md "Probes"), against
// a throwaway PostgreSQL cluster (Debian's postgresql, started here on loopback and removed after).
//
// PROBES (default 3) `klvscope probe` processes of the built bundle, each with FEEDS_PER_PROBE (2)
// unicast feeds on 127.0.0.1, each fed by `klvscope replay --loop` of a generated BITRATE (10 Mb/s)
// stream with ST 0601 KLV and a fault every 2 s, for SECONDS (60). The hub is `klvscope serve
// --catalog`; a tRPC client in this process follows every probe's findings. Printed: the rows
// written per second (findings, statistics, track points), PostgreSQL's CPU (the postmaster and
// its backends) and its size growth per feed-hour, the hub's and the probes' CPU, their peak
// memory, and the latency from a datagram's arrival at the probe to the finding reaching the hub's
// client (target p99 < 250 ms). Baseline, measured in the same run: one single-node live session
// (`klvscope serve`, no catalog) on one such feed; the ratio is a probe's CPU per feed to it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import WebSocket from 'ws';
import { epochNow } from '@klvscope/adapters';
import { PostgresConnection } from '@klvscope/adapters/postgres';
import { generateTransportStream, parseFaultSpec } from '@klvscope/core';
import { PostgresCluster } from '../test-support/postgres-cluster.ts';
import { freeUdpPort } from '../test-support/free-udp-port.ts';
import { startService } from './service-child.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '..', 'gateway', 'bin', 'klvscope.cjs');
const PROBES = Number(process.env.PROBES ?? 3);
const FEEDS_PER_PROBE = Number(process.env.FEEDS_PER_PROBE ?? 2);
const BITRATE = Number(process.env.BITRATE ?? 10_000_000);
const SECONDS = Number(process.env.SECONDS ?? 60);
const BASELINE_SECONDS = Number(process.env.BASELINE_SECONDS ?? 20);
const FEEDS = PROBES * FEEDS_PER_PROBE;

const work = mkdtempSync(join(tmpdir(), 'klvscope-probe-bench-'));
const cluster = await PostgresCluster.start();
const children = [];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** utime + stime of a process in seconds (/proc/PID/stat fields 14 and 15, ticks of 1/100 s). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The postmaster and every process it started (its backends, writers), by their parent. */
function postgresPids() {
  const postmaster = Number(readFileSync(join(cluster.dataDir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const pids = [postmaster];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (parent === postmaster) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** CPU seconds of these processes, those that still exist. */
function cpuOf(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      total += cpuSeconds(pid);
    } catch {
      // A backend that ended takes its time with it (connections here last the whole run).
    }
  }
  return total;
}

const peakRssMiB = (pid) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

function run(args, name) {
  const child = spawn(process.execPath, ['--v8-pool-size=0', cli, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.setEncoding('utf8').on('data', (text) => text.includes('SIGTERM') || process.stderr.write(`[${name}] ${text}`));
  children.push(child);
  return child;
}

function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const p = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { count: sorted.length, p50: p(0.5), p99: p(0.99), max: sorted.at(-1) };
}

async function stop(list) {
  await Promise.all(list.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM'))))));
}

try {
  // Ten seconds looped, a fault every 2 s: each loop gives findings of a few kinds, the latency's samples.
  const file = join(work, 'feed.ts');
  const faults = ['klv-checksum@1', 'drop-packet@3', 'pcr-gap@5', 'klv-unknown-tag@7', 'tei@9'].map((spec) => parseFaultSpec(spec));
  writeFileSync(file, generateTransportStream({ durationSeconds: 10, bitrate: BITRATE, seed: 5, klv: { carriage: 'sync' }, faults }).bytes);

  // Baseline: one single-node live session on one feed.
  const single = await startService(join(work, 'single'));
  children.push(single.server);
  const basePort = await freeUdpPort();
  await single.call('POST', '/sessions/live', { source: `udp://127.0.0.1:${basePort}` });
  const baseReplay = run(['replay', '--loop', file, `udp://127.0.0.1:${basePort}`], 'baseline replay');
  await sleep(2_000);
  const baseStart = cpuSeconds(single.server.pid);
  await sleep(BASELINE_SECONDS * 1_000);
  const baselineCpuPerFeed = (cpuSeconds(single.server.pid) - baseStart) / BASELINE_SECONDS;
  await stop([baseReplay]);
  await single.stop();

  // The fleet: the hub, the probes and their feeds.
  cluster.createDatabase('fleet');
  const url = cluster.url('fleet');
  const hub = await startService(join(work, 'hub'), { args: ['--catalog', url] });
  children.push(hub.server);
  const latencies = [];
  const repeatLatencies = [];
  const wsClient = createWSClient({ url: `${hub.base.replace(/^http/, 'ws')}/live`, WebSocket, connectionParams: { apiKey: hub.key } });
  const trpc = createTRPCClient({ links: [wsLink({ client: wsClient })] });
  const subscription = trpc.fleetFindings.subscribe(undefined, {
    onData: ({ data }) => {
      // A fault's finding is the first record of its kind in its second; the rest of that second is one record
      // published when the second ends (a second late by design), counted apart.
      if (data.receivedAt !== null && data.checkId !== 'live-source') (data.repeatOf === null ? latencies : repeatLatencies).push(epochNow() - data.receivedAt);
    },
    onError: (error) => process.stderr.write(`fleetFindings: ${error.message}\n`),
  });
  const probes = [];
  const replays = [];
  for (let p = 1; p <= PROBES; p++) {
    const ports = [];
    for (let f = 0; f < FEEDS_PER_PROBE; f++) ports.push(await freeUdpPort());
    probes.push(run(['probe', '--catalog', url, '--name', `bench-${p}`, '--quiet', ...ports.flatMap((port) => ['--source', `udp://127.0.0.1:${port}`])], `probe ${p}`));
    for (const port of ports) replays.push({ port });
  }
  const db = new PostgresConnection(url);
  for (let i = 0; i < 600; i++) {
    const [row] = await db.query("SELECT count(*)::int AS n FROM probe_sessions WHERE status IN ('waiting', 'receiving')");
    if (row.n === FEEDS) break;
    await sleep(100);
  }
  for (const replay of replays) replay.child = run(['replay', '--loop', file, `udp://127.0.0.1:${replay.port}`], `replay ${replay.port}`);
  await sleep(3_000);
  latencies.length = 0;
  repeatLatencies.length = 0;

  const counts = async () => {
    const [row] = await db.query('SELECT (SELECT count(*) FROM probe_findings)::int AS findings, (SELECT count(*) FROM probe_statistics)::int AS statistics, (SELECT count(*) FROM probe_track_points)::int AS track, pg_database_size(current_database())::float8 AS size');
    return row;
  };
  const before = await counts();
  const pgPids = postgresPids();
  const cpuBefore = { pg: cpuOf(pgPids), hub: cpuSeconds(hub.server.pid), probes: probes.map((child) => cpuSeconds(child.pid)) };
  const started = Date.now();
  await sleep(SECONDS * 1_000);
  const seconds = (Date.now() - started) / 1_000;
  const after = await counts();
  const cpu = {
    pg: (cpuOf(pgPids) - cpuBefore.pg) / seconds,
    hub: (cpuSeconds(hub.server.pid) - cpuBefore.hub) / seconds,
    probes: probes.map((child, i) => (cpuSeconds(child.pid) - cpuBefore.probes[i]) / seconds),
  };
  const memory = { hubPeakMiB: peakRssMiB(hub.server.pid), probePeakMiB: Math.max(...probes.map((child) => peakRssMiB(child.pid))) };
  const [{ dropped }] = await db.query("SELECT coalesce(sum((dropped::jsonb->>'findings')::int + (dropped::jsonb->>'statistics')::int + (dropped::jsonb->>'track')::int), 0)::int AS dropped FROM fleet_probes");
  subscription.unsubscribe();
  await wsClient.close();
  await db.end();
  await stop(replays.map((replay) => replay.child));
  await stop(probes);
  await hub.stop();

  const rows = (kind) => (after[kind] - before[kind]) / seconds;
  const probeCpuPerFeed = cpu.probes.reduce((a, b) => a + b, 0) / FEEDS;
  const latency = percentiles(latencies);
  const report = {
    setup: { probes: PROBES, feedsPerProbe: FEEDS_PER_PROBE, bitrateMbps: BITRATE / 1e6, seconds: Math.round(seconds) },
    rowsPerSecond: { findings: rows('findings'), statistics: rows('statistics'), trackPoints: rows('track'), total: rows('findings') + rows('statistics') + rows('track') },
    postgres: { cpuCores: cpu.pg, growthMiBPerFeedHour: ((after.size - before.size) / FEEDS / seconds) * 3_600 / 1_048_576 },
    hub: { cpuCores: cpu.hub, peakRssMiB: memory.hubPeakMiB },
    probes: { cpuCoresEach: cpu.probes, cpuPerFeed: probeCpuPerFeed, peakRssMiB: memory.probePeakMiB, dropped },
    baseline: { singleNodeCpuPerFeed: baselineCpuPerFeed, probeToBaseline: probeCpuPerFeed / baselineCpuPerFeed },
    latencyMs: latency,
    repeatRecordsLatencyMs: percentiles(repeatLatencies),
  };
  console.log(JSON.stringify(report, (key, value) => (typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1_000) / 1_000 : value), 2));
  console.log(
    `probes: ${FEEDS} feeds of ${BITRATE / 1e6} Mb/s for ${Math.round(seconds)} s: ${Math.round(report.rowsPerSecond.total)} rows/s; PostgreSQL ${(cpu.pg * 100).toFixed(1)} % of a core, ` +
      `${report.postgres.growthMiBPerFeedHour.toFixed(1)} MiB per feed-hour; hub ${(cpu.hub * 100).toFixed(1)} %; probe ${(probeCpuPerFeed * 100).toFixed(1)} % per feed ` +
      `(${report.baseline.probeToBaseline.toFixed(2)}x the single node's ${(baselineCpuPerFeed * 100).toFixed(1)} %); latency p50 ${latency.p50?.toFixed(1)} ms, p99 ${latency.p99?.toFixed(1)} ms (target < 250) over ${latency.count} findings`,
  );
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  cluster.remove();
  rmSync(work, { recursive: true, force: true });
}
