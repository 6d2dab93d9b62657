/**
 * The fleet's batch, end to end, run inside a private network namespace
 * (fleet-batch.test.ts starts it there): a throwaway PostgreSQL listening on
 * the namespace's veth ends, three `klvscope worker` processes each in a
 * network namespace of its own reaching it over a veth pair, 30 generated
 * recordings of mixed sizes with injected faults queued as one batch through
 * the inspection service's `POST /automation/batch`. Two workers are killed
 * with SIGKILL mid-job (one early in a read, one late) and replaced; then
 * PostgreSQL is stopped for 10 s mid-batch (the service answers 503 meanwhile)
 * and started again. Then every file's fleet result is compared with the
 * single node's `klvscope inspect --store` of it. Prints one JSON line: the summary
 * the test asserts on; exits 1 with the reason when something is off.
 */
import assert from 'node:assert/strict';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGenerator, parseFaultSpec } from '@klvscope/core';
import { Store } from '@klvscope/core/store';
import { connectPostgresCatalog, listWorkers, sweepOrphanedRunFiles } from '@klvscope/adapters/postgres';
import { importFromFleet } from '../../src/fleet/run-import.js';
import { inspectWithStore } from '../../src/cli/stored-inspection.js';
import { loadCliChecks } from '../../src/cli/cli-checks.js';
import { startInspectionServer } from '../../src/inspection/inspection-server.js';
import { defaultSettings } from '../../src/inspection/inspection-settings.js';
import { PostgresCluster } from '../../../test-support/postgres-cluster.js';
import { removeHostLink, startNamespacedHost, type NamespacedHost } from '../../../test-support/namespaced-hosts.js';
import { inspectionFingerprint } from './inspection-fingerprint.js';

const FAULTS = ['pcr-gap@1.5', 'drop-packet@1', 'klv-checksum@1.2', 'pat-gap@1', 'klv-timestamp-reversal@1.5', 'tei@0.8', 'pts-gap@1.1', 'klv-unknown-tag@0.5', 'duplicate-packet@1.3', 'psi-crc@0.9'];
const tsx = import.meta.resolve('tsx');
const LEASE_SECONDS = 4;
const KEY = 'fleet-scenario-key-0123456789abcdef';

const work = mkdtempSync(join(tmpdir(), 'klvscope-fleet-'));
const recordings = join(work, 'recordings');
const cluster = await PostgresCluster.start({ listenAddresses: '*' });
const hosts: NamespacedHost[] = [];
let nextHost = 1;
const output: string[] = [];
// Closed on every path: a service left open would keep the scenario alive after a failure, hiding it behind the test's timeout.
let service: Awaited<ReturnType<typeof startInspectionServer>> | null = null;
const startedMs = Date.now();
let phase = 'start';

/** Marks where the scenario is, on stderr as it goes: what the test shows when it times out. */
function enter(name: string): void {
  phase = name;
  process.stderr.write(`[scenario ${((Date.now() - startedMs) / 1000).toFixed(1)} s] ${name}\n`);
}

/** Ends the workers and the database and removes the scenario's files: at the end, and when it stalls. */
function removeEverything(): void {
  for (const host of hosts) host.process.kill('SIGKILL');
  cluster.remove();
  rmSync(work, { recursive: true, force: true });
}

/** Before the test's own timeout (280 s): say where the scenario waits and what the fleet was doing, then end it. */
const STALL_MS = 250_000;
let describeFleet: () => Promise<string> = () => Promise.resolve('(not started)');
setTimeout(() => {
  const within = (promise: Promise<string>): Promise<string> =>
    Promise.race([promise.catch((error: unknown) => `(failed: ${String(error)})`), new Promise<string>((r) => setTimeout(() => r('(no answer in 5 s)'), 5_000))]);
  void within(describeFleet()).then((fleet) => {
    const log = join(cluster.dataDir, 'server.log');
    const serverLog = existsSync(log) ? readFileSync(log, 'utf8').slice(-3000) : '(none)';
    // The summary last: the test shows the end of stderr.
    console.error(`workers' output:\n${output.join('').slice(-6000)}\nPostgreSQL's log (end):\n${serverLog}\nfleet: ${fleet}\nthe scenario stalled in "${phase}" after ${STALL_MS / 1000} s`);
    removeEverything();
    process.exit(1);
  });
}, STALL_MS).unref();

function startWorker(): NamespacedHost {
  const index = nextHost++;
  const url = `postgres://postgres@10.77.${index}.1:${cluster.port}/fleet`;
  const host = startNamespacedHost(index, process.execPath, [
    '--conditions=source', '--import', tsx, 'gateway/src/cli/main.ts', 'worker',
    '--catalog', url, '--lease-seconds', String(LEASE_SECONDS), '--work-dir', join(work, `worker-${index}`),
  ]);
  host.process.stdout?.on('data', (text: Buffer) => output.push(`[worker ${index}] ${text.toString()}`));
  host.process.stderr?.on('data', (text: Buffer) => output.push(`[worker ${index}] ${text.toString()}`));
  hosts.push(host);
  return host;
}

/** What process `pid` reads (/proc, as root): whether it has a file named `name` open, and the bytes it has read so far (rchar); null once it has ended. */
function readingOf(pid: number, name: string): { open: boolean; readBytes: number } | null {
  try {
    const open = readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`).endsWith(`/${name}`);
      } catch {
        return false; // closed meanwhile
      }
    });
    const rchar = /^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return { open, readBytes: Number(rchar?.[1] ?? 0) };
  } catch {
    return null;
  }
}

function writeRecording(name: string, seconds: number, bitrate: number, faults: string[], seed: number): string {
  const stream = createGenerator({ durationSeconds: seconds, bitrate, klv: {}, seed, faults: faults.map((spec) => parseFaultSpec(spec)) });
  const path = join(recordings, name);
  const fd = openSync(path, 'w');
  try {
    for (const chunk of stream.chunks()) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return path;
}

try {
  cluster.createDatabase('fleet');
  const url = cluster.url('fleet');
  const catalog = await connectPostgresCatalog(url);
  mkdirSync(recordings);
  // Mixed sizes: 28 of 0.3 to 6 MB, and two of about 100 MB whose jobs last long enough (over a second) to be killed in.
  enter('writing the recordings');
  const paths: string[] = [];
  for (let i = 0; i < 28; i++) paths.push(writeRecording(`r${String(i).padStart(2, '0')}.ts`, 2 + (i % 7) * 2, 1_000_000 + (i % 5) * 1_500_000, [FAULTS[i % FAULTS.length]], i + 1));
  paths.push(writeRecording('long-a.ts', 50, 16_000_000, ['pcr-gap@10'], 101));
  paths.push(writeRecording('long-b.ts', 50, 16_000_000, ['klv-checksum@32'], 102));

  enter('starting the workers and the service');
  const workers = [startWorker(), startWorker(), startWorker()];
  const server = await startInspectionServer({ port: 0, env: {}, log: { level: 'silent' }, apiKey: KEY, dataDir: join(work, 'service'), catalogUrl: url, defaultSettings: { ...defaultSettings(), browseRoots: [recordings] } });
  service = server;
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const response = await fetch(`${server.url}${path}`, { method, headers: { 'x-api-key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  enter('queueing the batch');
  const queued = await call('POST', '/automation/batch', { folder: recordings });
  describeFleet = async () => {
    const answers = await Promise.all([`/automation/batch/${queued.json.batch as string}`, '/fleet'].map((path) => call('GET', path).then((answer) => answer.json)));
    return JSON.stringify(answers);
  };
  assert.equal(queued.status, 202, JSON.stringify(queued.json));
  assert.equal(queued.json.queued, paths.length);

  // Kill 1: the worker reading long-a.ts, as soon as it has the file open (early in the read).
  // Kill 2: the worker reading long-b.ts, once it has read 40 MB since it was first seen with the file open (late in the
  // read: the job reads the file twice, the pass and the hash, 200 MB in all). Watched in /proc every 10 ms rather than
  // through the workers' heartbeats (one a second): a 100 MB job may take less than a second.
  enter('waiting to kill the workers reading long-a.ts and long-b.ts');
  const targets = [
    { path: 'long-a.ts', lateBytes: 0 },
    { path: 'long-b.ts', lateBytes: 40_000_000 },
  ];
  const kills: { path: string; bytesReadAtKill: number }[] = [];
  const readBytesWhenSeen = new Map<string, number>();
  const killDeadline = Date.now() + 90_000;
  while (kills.length < targets.length) {
    assert.ok(Date.now() < killDeadline, `no worker was seen reading ${targets[kills.length].path} within 90 s`);
    for (const [order, target] of targets.entries()) {
      if (order < kills.length) continue;
      for (const host of hosts.filter((h) => h.process.exitCode === null && h.process.signalCode === null)) {
        const key = `${host.index} ${target.path}`;
        const reading = readingOf(host.process.pid as number, target.path);
        if (reading === null) continue;
        if (!reading.open) {
          assert.ok(!readBytesWhenSeen.has(key), `worker ${host.index} read ${target.path} to its end before it could be killed`);
          continue;
        }
        if (!readBytesWhenSeen.has(key)) readBytesWhenSeen.set(key, reading.readBytes);
        const bytesRead = reading.readBytes - (readBytesWhenSeen.get(key) as number);
        // The kills come in order: kill 2 waits for kill 1, and is then at least as late as it was meant to be.
        if (order === kills.length && bytesRead >= target.lateBytes) {
          host.process.kill('SIGKILL');
          kills.push({ path: target.path, bytesReadAtKill: bytesRead });
          removeHostLink(host.index);
          startWorker();
          break;
        }
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  // PostgreSQL away for 10 s mid-batch: the service says so (503), workers and service reconnect after.
  enter('waiting for 3 completed jobs before the outage');
  let before = { completed: 0 };
  for (let polls = 0; polls < 1200 && before.completed < 3; polls++) {
    before = (await call('GET', `/automation/batch/${queued.json.batch as string}`)).json.counts as typeof before;
    if (before.completed < 3) await new Promise((r) => setTimeout(r, 100));
  }
  enter('stopping PostgreSQL');
  cluster.stopServer();
  enter('asking the service during the outage');
  const outage = await call('GET', '/fleet');
  assert.equal(outage.status, 503);
  assert.equal((outage.json.error as { code: string }).code, 'ERR_CATALOG_UNAVAILABLE');
  await new Promise((r) => setTimeout(r, 10_000));
  enter('starting PostgreSQL again');
  cluster.startServer();
  enter('waiting for the batch to end');
  let state: { done: boolean; counts: Record<string, number> };
  const deadline = Date.now() + 150_000;
  for (;;) {
    const answer = await call('GET', `/automation/batch/${queued.json.batch as string}`);
    state = answer.json as typeof state;
    if (answer.status === 200 && state.done) break;
    assert.ok(Date.now() < deadline, `the batch did not end: ${JSON.stringify(answer.json)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.deepEqual(state.counts, { created: 0, retry: 0, active: 0, completed: paths.length, cancelled: 0, failed: 0 });
  enter('closing the service');
  service = null;
  await server.close();
  enter('checking the catalog');

  // One completed run per content, made by a worker; every queued file listed.
  const runs = await catalog.connection.query<{ hash: string; n: number; workers: number }>(
    `SELECT hash, count(*)::int AS n, count(worker)::int AS workers FROM ingest_runs WHERE status = 'completed' GROUP BY hash`,
  );
  assert.equal(runs.length, paths.length, 'one content per recording');
  for (const run of runs) assert.equal(run.n, 1, `content ${run.hash} has ${run.n} completed runs`);
  // A job whose lease ran out during the outage may still be finishing on its first worker (it publishes, finds the
  // other run listed, and drops its own files): wait until every live worker is idle before looking for orphans.
  enter('waiting for the workers to be idle');
  for (let polls = 0; polls < 300; polls++) {
    const busy = (await listWorkers(catalog.connection)).filter((w) => w.stoppedMs === null && Date.now() - w.heartbeatMs < 3_000 && w.currentJob !== null);
    if (busy.length === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 1_500));
  // The killed jobs ran again elsewhere. A worker killed while storing its run's files leaves them, listed by no
  // run: the workers' sweep deletes them (run here at once rather than after three leases); then none is left.
  enter('sweeping and checking consistency');
  const swept = await sweepOrphanedRunFiles(catalog.connection, Date.now());
  const inconsistencies = await catalog.checkConsistency();

  // Every file: the fleet's result (copied into a fresh data folder) equals the single node's.
  enter('comparing with the single node');
  const checks = await loadCliChecks({});
  let compared = 0;
  for (const path of paths) {
    const single = await inspectWithStore(path, join(work, 'single', `${compared}`), Promise.resolve(checks));
    const record = await catalog.getFileRecord(path);
    assert.equal(record?.hash, single.result.fileHash, `${path}: the fleet recorded another content`);
    const store = await Store.open({ dataDir: join(work, 'from-fleet', `${compared}`) });
    const fromSingle = await Store.open({ dataDir: single.dataDir });
    try {
      assert.ok(await importFromFleet(store, catalog.connection, single.result.fileHash, path));
      const keys = { parseKey: single.result.key.parseKey, checkKey: single.result.key.checkKey };
      const fleetPrint = await inspectionFingerprint(store, single.result.fileHash, keys);
      const singlePrint = await inspectionFingerprint(fromSingle, single.result.fileHash, keys);
      assert.deepEqual(fleetPrint, singlePrint, `${path}: the fleet's inspection differs from the single node's`);
    } finally {
      await store.close();
      await fromSingle.close();
    }
    compared++;
  }
  const workersSeen = await listWorkers(catalog.connection);
  const jobsPerWorker = workersSeen.map((w) => w.jobsDone);
  await catalog.close();
  console.log(JSON.stringify({ recordings: paths.length, compared, kills, swept: swept.length, inconsistencies, workers: workersSeen.length, jobsPerWorker, firstWorkers: workers.length, completedBeforeOutage: before.completed }));
} catch (error) {
  console.error(output.join(''));
  console.error(error);
  enter(`failed: ${String(error)}`);
  process.exitCode = 1;
} finally {
  enter('cleaning up');
  await service?.close().catch(() => undefined);
  removeEverything();
  enter('ended');
}
