// `npm run bench:fleet`: the archive fleet on this machine (docs/fleet.md), against a throwaway
// PostgreSQL cluster (Debian's postgresql, started here on loopback and removed after).
//
// 1. Batch throughput: FLEET_FILES recordings (default 8 of about 150 MB, generated, read once
//    before so that the page cache holds them) inspected by 1 worker, then by 2 (each phase on a
//    fresh database, so nothing is reused), `klvscope worker` processes of the built bundle. MB/s
//    from the enqueue to the last completion, and the ratio 2 workers / 1 (target at least 1.7 on
//    2 cores). Beside it, the baseline: the same files by `klvscope inspect --store` one after the
//    other in one process, measured in the same run.
// 2. The queue's own cost: 10,000 tiny jobs queued, then claimed and completed by 4 claimers in
//    this process with no work: jobs/s each way, and the claim latency (p50, p99).
// 3. From a worker's SIGKILL mid-job to the job running again on the other worker, at the lease
//    given (FLEET_LEASE_SECONDS, default 10; the worker's default is 30).
// 4. Bytes in PostgreSQL per GB of recording: the run files (bytea) and the catalog rows.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGenerator } from '@klvscope/core';
import { connectPostgresCatalog, InspectionJobQueue, listWorkers, runFileBytes } from '@klvscope/adapters/postgres';
import { PostgresCluster } from '../test-support/postgres-cluster.ts';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '..', 'gateway', 'bin', 'klvscope.cjs');
const FILES = Number(process.env.FLEET_FILES ?? 8);
const SECONDS_PER_FILE = Number(process.env.FLEET_FILE_SECONDS ?? 60);
const LEASE_SECONDS = Number(process.env.FLEET_LEASE_SECONDS ?? 10);
const TINY_JOBS = Number(process.env.FLEET_TINY_JOBS ?? 10_000);

const work = mkdtempSync(join(tmpdir(), 'klvscope-fleet-bench-'));
const recordings = join(work, 'recordings');
mkdirSync(recordings);
const cluster = await PostgresCluster.start();
const children = [];

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function startWorker(url, name) {
  const child = spawn(process.execPath, [cli, 'worker', '--catalog', url, '--lease-seconds', String(LEASE_SECONDS), '--work-dir', join(work, name), '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'] });
  // Its stop message is noise here; anything else it says is shown.
  child.stderr.setEncoding('utf8').on('data', (text) => text.includes('SIGTERM') || process.stderr.write(text));
  children.push(child);
  return child;
}

async function untilWorkers(catalog, count) {
  for (let i = 0; i < 600; i++) {
    const live = (await listWorkers(catalog.connection)).filter((w) => w.stoppedMs === null && Date.now() - w.heartbeatMs < 3000);
    if (live.length >= count) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${count} workers did not come up`);
}

async function stopWorkers(list) {
  await Promise.all(list.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill('SIGTERM'))))));
}

async function batchOn(workers, paths) {
  const url = cluster.createDatabase(`batch_${workers}w`);
  const catalog = await connectPostgresCatalog(url);
  const queue = await InspectionJobQueue.start(catalog.connection, url, { supervise: false });
  const started = Array.from({ length: workers }, (_, i) => startWorker(url, `w${workers}-${i}`));
  await untilWorkers(catalog, workers);
  const t0 = performance.now();
  await queue.enqueue(paths.map((path) => ({ path, batch: 'bench' })));
  for (;;) {
    const counts = await queue.counts('bench');
    if (counts.failed > 0) throw new Error(`a job failed: ${JSON.stringify(await queue.failed())}`);
    if (counts.completed === paths.length) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = (performance.now() - t0) / 1000;
  const [{ bytes: dbBytes }] = await catalog.connection.query('SELECT pg_database_size(current_database())::bigint AS bytes');
  const runBytes = await runFileBytes(catalog.connection);
  const [{ bytes: catalogBytes }] = await catalog.connection.query(
    `SELECT sum(pg_total_relation_size(c))::bigint AS bytes FROM unnest(ARRAY['files', 'file_records', 'stage_payloads', 'ingest_runs']::regclass[]) AS c`,
  );
  await stopWorkers(started);
  await queue.stop();
  await catalog.close();
  return { seconds, dbBytes, runBytes, catalogBytes };
}

try {
  console.log(`bench:fleet: ${FILES} recordings of ${SECONDS_PER_FILE} s at 20 Mb/s, lease ${LEASE_SECONDS} s, PostgreSQL ${cluster.url()}`);
  const paths = [];
  for (let i = 0; i < FILES; i++) {
    const path = join(recordings, `r${i}.ts`);
    const fd = openSync(path, 'w');
    for (const chunk of createGenerator({ durationSeconds: SECONDS_PER_FILE, bitrate: 20_000_000, klv: {}, seed: i + 1 }).chunks()) writeSync(fd, chunk);
    closeSync(fd);
    paths.push(path);
  }
  const totalBytes = paths.reduce((sum, path) => sum + statSync(path).size, 0);
  for (const path of paths) readFileSync(path); // into the page cache
  const mb = totalBytes / 1e6;

  // Baseline: the single node, file after file.
  const t0 = performance.now();
  for (const path of paths) {
    const run = spawnSync(process.execPath, [cli, 'inspect', path, '--store', join(work, 'single'), '--fail-on', 'never'], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`inspect --store exited ${run.status}: ${run.stderr}`);
  }
  const singleSeconds = (performance.now() - t0) / 1000;

  const one = await batchOn(1, paths);
  const two = await batchOn(2, paths);
  console.log('\n1. batch throughput (page cache warm)');
  console.log(`  single node, inspect --store one after another  ${(mb / singleSeconds).toFixed(0).padStart(5)} MB/s  (${singleSeconds.toFixed(1)} s for ${mb.toFixed(0)} MB)`);
  console.log(`  fleet, 1 worker                                   ${(mb / one.seconds).toFixed(0).padStart(5)} MB/s  (${one.seconds.toFixed(1)} s; ${(singleSeconds / one.seconds).toFixed(2)}x the single node)`);
  console.log(`  fleet, 2 workers                                  ${(mb / two.seconds).toFixed(0).padStart(5)} MB/s  (${two.seconds.toFixed(1)} s)`);
  console.log(`  2 workers / 1 worker                              ${(one.seconds / two.seconds).toFixed(2)}x  (target 1.7x)`);

  // 2. The queue alone.
  const url = cluster.createDatabase('tiny');
  const catalog = await connectPostgresCatalog(url);
  const queue = await InspectionJobQueue.start(catalog.connection, url, { supervise: false, leaseSeconds: 60 });
  const q0 = performance.now();
  const BATCH = 500;
  for (let i = 0; i < TINY_JOBS; i += BATCH) await queue.enqueue(Array.from({ length: Math.min(BATCH, TINY_JOBS - i) }, (_, j) => ({ path: `/tiny/${i + j}.ts` })));
  const enqueueSeconds = (performance.now() - q0) / 1000;
  const latencies = [];
  const c0 = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (;;) {
        const t = performance.now();
        const job = await queue.claim();
        if (job === null) return;
        latencies.push(performance.now() - t);
        await queue.complete(job.id, { ok: true });
      }
    }),
  );
  const claimSeconds = (performance.now() - c0) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(`\n2. the queue's own cost (${TINY_JOBS} tiny jobs, 4 claimers, no work)`);
  console.log(`  enqueue            ${(TINY_JOBS / enqueueSeconds).toFixed(0)} jobs/s (one send each)`);
  console.log(`  claim + complete   ${(latencies.length / claimSeconds).toFixed(0)} jobs/s`);
  console.log(`  claim latency      p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`);
  await queue.stop();
  await catalog.close();

  // 3. SIGKILL to running again.
  const killUrl = cluster.createDatabase('kill');
  const killCatalog = await connectPostgresCatalog(killUrl);
  const killQueue = await InspectionJobQueue.start(killCatalog.connection, killUrl, { supervise: false });
  const [victim, survivor] = [startWorker(killUrl, 'victim'), startWorker(killUrl, 'survivor')];
  await untilWorkers(killCatalog, 2);
  const [jobId] = await killQueue.enqueue([{ path: paths[0] }]);
  let holder;
  for (let i = 0; i < 2000 && !holder; i++) {
    holder = (await listWorkers(killCatalog.connection)).find((w) => w.currentJob === jobId);
    if (!holder) await new Promise((r) => setTimeout(r, 10));
  }
  if (!holder) throw new Error('no worker was seen holding the job: make FLEET_FILE_SECONDS larger');
  const [killed, other] = holder.pid === victim.pid ? [victim, survivor] : [survivor, victim];
  killed.kill('SIGKILL');
  const killedAt = new Date();
  const k0 = performance.now();
  let rerunSeconds = null;
  // Running again: pg-boss's job active once more, claimed after the kill (by the only worker left).
  for (let i = 0; i < 6_000 && rerunSeconds === null; i++) {
    const [job] = await killCatalog.connection.query('SELECT state, started_on FROM pgboss.job WHERE id = $1', [jobId]);
    if ((job?.state === 'active' || job?.state === 'completed') && job.started_on > killedAt) rerunSeconds = (performance.now() - k0) / 1000;
    else await new Promise((r) => setTimeout(r, 20));
  }
  console.log(`\n3. SIGKILL mid-job to running again on the other worker: ${rerunSeconds?.toFixed(1) ?? 'never'} s (lease ${LEASE_SECONDS} s, heartbeat 1 s, pg-boss maintenance every ${Math.max(1, Math.floor(LEASE_SECONDS / 5))} s)`);
  await stopWorkers([other]);
  await killQueue.stop();
  await killCatalog.close();

  console.log(`\n4. bytes in PostgreSQL per GB of recording (the 2-worker batch: ${mb.toFixed(0)} MB)`);
  const perGb = (bytes) => `${((bytes / totalBytes) * 1e9 / 1e6).toFixed(1)} MB`;
  console.log(`  run files (bytea)  ${perGb(two.runBytes)}`);
  console.log(`  catalog rows       ${perGb(two.catalogBytes)}`);
  console.log(`  whole database     ${perGb(two.dbBytes)} (with pg-boss and PostgreSQL's own ~7.5 MB)`);
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  cluster.remove();
  rmSync(work, { recursive: true, force: true });
}
