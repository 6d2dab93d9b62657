/**
 * Probes and their hub, end to end, run inside a private network namespace
 * (probe-fleet.test.ts starts it there): a throwaway PostgreSQL listening
 * on the namespace's veth ends, the hub (an inspection service with the
 * catalog) on 127.0.0.1, and three machines, each a network namespace of
 * its own reaching PostgreSQL over a veth pair, each with two multicast
 * feeds of its own (`klvscope replay --loop` of generated streams with
 * injected faults) and a `klvscope probe` watching them. A tRPC client of
 * the hub follows every probe's findings and statistics. Then probe 2 is
 * killed with SIGKILL (offline on the hub within 5 s, its sessions unknown)
 * and started again (its sessions resume), and PostgreSQL is stopped for
 * 10 s while the feeds run. Prints one JSON line, the summary the test
 * asserts on; exits 1 with the reason when something is off.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTransportStream, parseFaultSpec } from '@klvscope/core';
import { PostgresConnection } from '@klvscope/adapters/postgres';
import { startInspectionServer } from '../../src/inspection/inspection-server.js';
import type { ProbeView } from '../../src/probe/probe-records.js';
import { fileFindings } from '../live/live-client.js';
import { PostgresCluster } from '../../../test-support/postgres-cluster.js';
import { removeHostLink, startInHost, startNamespacedHost, type NamespacedHost } from '../../../test-support/namespaced-hosts.js';
import { connectFleetClient } from './fleet-client.js';

const tsx = import.meta.resolve('tsx');
const KEY = 'probe-scenario-key-0123456789abcdef';
const PROBES = 3;
const FEEDS_PER_PROBE = 2;
/** Each feed loops a file of this length, its faults recurring each loop. */
const FILE_SECONDS = 8;
/** A fault's findings come at its packet or soon after (the next PCR, the next table): within 0.2 s of a 2 Mb/s feed. */
const FAULT_WINDOW_PACKETS = 270;
const FAULT_SETS = [
  ['klv-checksum@1.5', 'pcr-gap@4.5'],
  ['pmt-gap@2', 'klv-unknown-tag@5'],
  ['tei@1', 'psi-crc@5.5'],
  ['klv-checksum@3', 'drop-packet@6'],
  ['pts-gap@2.5', 'klv-timestamp-reversal@5.5'],
  ['duplicate-packet@2', 'pat-gap@4'],
];

const work = mkdtempSync(join(tmpdir(), 'klvscope-probes-'));
const cluster = await PostgresCluster.start({ listenAddresses: '*' });
const machines: NamespacedHost[] = [];
const processes: ChildProcess[] = [];
const output: string[] = [];
const probeProcesses = new Map<number, ChildProcess>();

function captured(child: ChildProcess, label: string): ChildProcess {
  child.stdout?.on('data', (text: Buffer) => output.push(`[${label}] ${text.toString()}`));
  child.stderr?.on('data', (text: Buffer) => output.push(`[${label}] ${text.toString()}`));
  processes.push(child);
  return child;
}

/** A machine's feed: a multicast group of its own network, on its loopback (named, as a feed's interface is named on a real probe). */
const feedGroup = (machine: number, feed: number): string => `udp://239.77.${machine}.${feed}:5000?interface=127.0.0.1`;

function startProbe(machine: NamespacedHost): ChildProcess {
  const sources = Array.from({ length: FEEDS_PER_PROBE }, (_, feed) => ['--source', feedGroup(machine.index, feed + 1)]).flat();
  const child = startInHost(machine, process.execPath, [
    '--conditions=source', '--import', tsx, 'gateway/src/cli/main.ts', 'probe',
    '--catalog', `postgres://postgres@${machine.gateway}:${cluster.port}/fleet`, '--name', `probe-${machine.index}`, ...sources,
  ]);
  probeProcesses.set(machine.index, captured(child, `probe-${machine.index}`));
  return child;
}

/** Writes a generated feed; its path and the kinds (check and type) of the findings its faults cause. */
async function writeFeed(name: string, faults: readonly string[], seed: number): Promise<{ path: string; kinds: string[] }> {
  const { bytes, faults: injected } = generateTransportStream({ durationSeconds: FILE_SECONDS, bitrate: 2_000_000, klv: {}, seed, faults: faults.map((spec) => parseFaultSpec(spec)) });
  const path = join(work, name);
  writeFileSync(path, bytes);
  // The findings at (or just after) each fault's packet: what a probe must report of it, in every loop.
  const near = (packetIndex: number): boolean => injected.some((fault) => packetIndex >= fault.packetIndex && packetIndex < fault.packetIndex + FAULT_WINDOW_PACKETS);
  const kinds = new Set((await fileFindings(path)).filter((finding) => near(finding.packetIndex)).map((finding) => `${finding.checkId}|${finding.type}`));
  assert.ok(kinds.size >= faults.length, `the faults of ${name} cause findings of ${kinds.size} kinds only`);
  return { path, kinds: [...kinds] };
}

/** Progress on stderr: what the test shows when the scenario fails or times out. */
const step = (text: string): void => void process.stderr.write(`${new Date().toISOString()} ${text}\n`);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What the last wait saw, for its message when it times out. */
let lastSeen = '';

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}${lastSeen ? ` (last seen: ${lastSeen})` : ''}`);
    await sleep(100);
  }
}

try {
  cluster.createDatabase('fleet');
  const url = cluster.url('fleet');
  const hub = await startInspectionServer({ port: 0, env: {}, log: { level: 'silent' }, apiKey: KEY, dataDir: join(work, 'hub'), catalogUrl: url });
  const probesNow = async (): Promise<ProbeView[]> => {
    const response = await fetch(`${hub.url}/probes`, { headers: { 'x-api-key': KEY } });
    assert.equal(response.status, 200);
    return ((await response.json()) as { probes: ProbeView[] }).probes;
  };
  const client = await connectFleetClient(hub.url, KEY);
  step(`hub at ${hub.url}, PostgreSQL on port ${cluster.port}`);

  // Three machines, each with its feeds and its probe.
  mkdirSync(join(work, 'feeds'), { recursive: true });
  const expectedKinds = new Map<string, string[]>();
  for (let index = 1; index <= PROBES; index++) {
    const machine = startNamespacedHost(index, 'sleep', ['infinity'], { multicast: true });
    captured(machine.process, `machine-${index}`);
    machines.push(machine);
  }
  await sleep(500);
  for (const machine of machines) {
    startProbe(machine);
    for (let feed = 1; feed <= FEEDS_PER_PROBE; feed++) {
      const set = FAULT_SETS[(machine.index - 1) * FEEDS_PER_PROBE + feed - 1];
      const { path: file, kinds } = await writeFeed(`feeds/m${machine.index}-f${feed}.ts`, set, machine.index * 10 + feed);
      expectedKinds.set(feedGroup(machine.index, feed), kinds);
      captured(startInHost(machine, process.execPath, ['--conditions=source', '--import', tsx, 'gateway/src/cli/main.ts', 'replay', '--loop', file, feedGroup(machine.index, feed)]), `replay-${machine.index}.${feed}`);
    }
  }
  step('machines, probes and feeds started');
  const sessionsOf = new Map<string, { probe: string; source: string }>();
  await until('six receiving sessions on three online probes', 180_000, async () => {
    const probes = await probesNow();
    lastSeen = probes.map((p) => `${p.name} ${p.online ? 'online' : 'offline'}: ${p.sessions.map((s) => `${s.source} ${s.status}`).join(', ')}`).join('; ');
    const receiving = probes.filter((p) => p.online).flatMap((p) => p.sessions.filter((s) => s.status === 'receiving'));
    return probes.length === PROBES && receiving.length === PROBES * FEEDS_PER_PROBE ? probes : undefined;
  }).then((probes) => {
    for (const probe of probes) for (const session of probe.sessions) sessionsOf.set(session.sessionId, { probe: probe.name, source: session.source });
  });
  step(`six sessions receiving: ${[...sessionsOf.keys()].join(', ')}`);
  // Two loops of every file: each injected fault at least twice, with PostgreSQL up. The latency is
  // measured there, once every session receives (the probes' start-up, several processes starting at
  // once, is not what it is about).
  const steadyFrom = client.findings.length;
  await sleep(2 * FILE_SECONDS * 1_000);
  const steadyFindings = client.findings.length;
  // A fault's finding is the first record of its kind in its second; the rest of that second is folded into one
  // record published when the second ends (finding-coalescer.ts), a second late by design, and left out here.
  const steady = client.findings
    .slice(steadyFrom, steadyFindings)
    .map((finding, i) => ({ finding, arrival: client.arrivals[steadyFrom + i] }))
    .filter(({ finding }) => finding.repeatOf === null);
  const latencies = steady.map(({ finding, arrival }) => arrival - (finding.receivedAt ?? finding.emittedAt));
  // Where the time goes: in the probe (datagram to finding) and after it (finding to the hub's client).
  const inProbe = steady.map(({ finding }) => finding.emittedAt - (finding.receivedAt ?? finding.emittedAt));
  const afterProbe = steady.map(({ finding, arrival }) => arrival - finding.emittedAt);
  const kinds: Record<string, number> = {};
  for (const finding of client.findings) kinds[`${finding.checkId}|${finding.type}`] = (kinds[`${finding.checkId}|${finding.type}`] ?? 0) + 1;

  // Probe 2 killed: offline on the hub within 5 s, its sessions unknown; started again, they resume.
  step(`${steadyFindings} findings so far; killing probe-2`);
  const killedAt = Date.now();
  probeProcesses.get(2)!.kill('SIGKILL');
  const offline = await until('probe-2 offline', 15_000, async () => {
    const probe = (await probesNow()).find((p) => p.name === 'probe-2');
    return probe && !probe.online ? probe : undefined;
  });
  const offlineAfterMs = Date.now() - killedAt;
  const unknownSessions = offline.sessions.filter((s) => s.status === 'unknown').length;
  step(`probe-2 offline after ${offlineAfterMs} ms; starting it again`);
  startProbe(machines[1]);
  const resumed = await until('probe-2 back with its sessions in their second run', 60_000, async () => {
    const probe = (await probesNow()).find((p) => p.name === 'probe-2');
    return probe?.online && probe.sessions.filter((s) => s.run === 2 && s.status === 'receiving').length === FEEDS_PER_PROBE ? probe : undefined;
  });

  // PostgreSQL away for 10 s while the feeds run.
  step('probe-2 resumed; stopping PostgreSQL for 10 s');
  const outageStart = Date.now();
  cluster.stopServer();
  await sleep(10_000);
  cluster.startServer();
  const outageEnd = Date.now();
  // Enough time for the probes to deliver what they kept, then the end: probes stopped (SIGTERM: they write their last records), feeds stopped.
  await sleep(8_000);
  for (const child of probeProcesses.values()) child.kill('SIGTERM');
  await Promise.all([...probeProcesses.values()].map((child) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve)))));
  // Each probe lived through the outage and stopped cleanly.
  const probeExits = [...probeProcesses.values()].map((child) => child.exitCode);
  for (const child of processes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');

  // What the catalog holds, and what the client received.
  step(`probes stopped; comparing. Their last words: ${output.filter((line) => line.startsWith('[probe')).slice(-8).join('')}`);
  const db = new PostgresConnection(url);
  const stored = await db.query<{ session_id: string; run: number; seq: number; id: number; probe: string }>('SELECT session_id, run, seq, id, probe FROM probe_findings ORDER BY id');
  await until('the client to have every stored finding', 20_000, () => Promise.resolve(client.findings.length >= stored.length ? true : undefined));
  const statistics = await db.query<{ session_id: string; run: number; seqs: number[] }>('SELECT session_id, run, array_agg(seq ORDER BY seq)::int[] AS seqs FROM probe_statistics GROUP BY session_id, run');
  const probeRows = await db.query<{ name: string; dropped: string }>('SELECT name, dropped FROM fleet_probes');
  const sessionRows = await db.query<{ id: string; run: number; state: string }>('SELECT id, run, state FROM probe_sessions');
  await db.end();

  // Every finding once: the client's ids are the stored ones, each once, and each session run's numbers have no hole.
  const receivedIds = client.findings.map((f) => f.id);
  const duplicates = receivedIds.length - new Set(receivedIds).size;
  const storedIds = new Set(stored.map((row) => row.id));
  const missing = [...storedIds].filter((id) => !receivedIds.includes(id)).length;
  const holes: string[] = [];
  const byRun = new Map<string, number[]>();
  for (const finding of client.findings) byRun.set(`${finding.sessionId}#${finding.run}`, [...(byRun.get(`${finding.sessionId}#${finding.run}`) ?? []), finding.seq]);
  for (const [key, seqs] of byRun) {
    seqs.sort((a, b) => a - b);
    if (seqs.some((seq, i) => seq !== i + 1)) holes.push(key);
  }
  // The probes stopped by SIGTERM wrote their sessions' last state: every record they made was received.
  const finalRecords = new Map(sessionRows.map((row) => [`${row.id}#${row.run}`, (JSON.parse(row.state) as { counts: { records: number } }).counts.records]));
  const incomplete = [...finalRecords].filter(([key, records]) => (byRun.get(key)?.length ?? 0) !== records).map(([key, records]) => `${key}: ${byRun.get(key)?.length ?? 0} of ${records}`);
  // Named with probe and session, as the hub knows them; the kinds of faults of each feed all seen.
  const misnamed = client.findings.filter((f) => sessionsOf.get(f.sessionId)?.probe !== f.probe).length;
  const unseenKinds: string[] = [];
  for (const [sessionId, { source }] of sessionsOf) {
    const seen = new Set(client.findings.filter((f) => f.sessionId === sessionId).map((f) => `${f.checkId}|${f.type ?? null}`));
    for (const kind of expectedKinds.get(source) ?? []) if (!seen.has(kind)) unseenKinds.push(`${source} ${kind}`);
  }
  // Findings made during the outage reached the client after it.
  const duringOutage = client.findings.filter((f) => (f.receivedAt ?? f.emittedAt) >= outageStart && (f.receivedAt ?? f.emittedAt) <= outageEnd).length;
  // Statistics: no hole in any session run's readings beyond what the probes report dropped.
  const droppedStatistics = probeRows.reduce((sum, row) => sum + ((JSON.parse(row.dropped) as Record<string, number>).statistics ?? 0), 0);
  const statisticsHoles = statistics.reduce((sum, row) => sum + (row.seqs.at(-1)! - row.seqs.length), 0);
  const percentiles = (values: number[]): { count: number; p50: number; p99: number; max: number } => {
    const sorted = [...values].sort((a, b) => a - b);
    const p = (q: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
    return { count: sorted.length, p50: p(0.5), p99: p(0.99), max: p(1) };
  };

  await client.close();
  await hub.close();
  console.log(
    JSON.stringify({
      sessions: sessionsOf.size,
      findings: client.findings.length,
      storedFindings: stored.length,
      steadyFindings,
      duplicates,
      missing,
      holes,
      incomplete,
      misnamed,
      unseenKinds,
      duringOutage,
      offlineAfterMs,
      unknownSessions,
      probeExits,
      resumedRuns: resumed.sessions.map((s) => s.run),
      statisticsRows: statistics.reduce((sum, row) => sum + row.seqs.length, 0),
      statisticsHoles,
      droppedStatistics,
      latencyMs: percentiles(latencies),
      inProbeMs: percentiles(inProbe),
      afterProbeMs: percentiles(afterProbe),
      kinds,
    }),
  );
} catch (error) {
  console.error(error);
  console.error(output.join('').slice(-6000));
  process.exitCode = 1;
} finally {
  for (const child of processes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const machine of machines) removeHostLink(machine.index);
  cluster.remove();
  rmSync(work, { recursive: true, force: true });
}
