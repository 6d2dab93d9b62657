import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { BUILT_IN_CHECKS } from '@klvscope/plugins';
import { FleetWorker } from '../../src/fleet/fleet-worker.js';
import { defaultSettings } from '../../src/inspection/inspection-settings.js';
import { inspectWithStore } from '../../src/cli/stored-inspection.js';
import { loadCliChecks } from '../../src/cli/cli-checks.js';
import { PostgresCluster, requirePostgres } from '../../../test-support/postgres-cluster.js';
import { startTestServer, type TestServer } from '../inspection/test-server.js';
import { writeGenerated } from '../inspection/file-test-server.js';

interface BatchState {
  jobs: number;
  done: boolean;
  counts: Record<string, number>;
}

async function batchDone(server: TestServer, batch: string, timeoutMs = 120_000): Promise<BatchState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await server.call(`/automation/batch/${batch}`);
    if (answer.status === 200 && (answer.json as BatchState).done) return answer.json as BatchState;
    if (Date.now() > deadline) throw new Error(`batch ${batch} did not end: ${answer.status} ${answer.text}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the inspection service with a fleet (serve --catalog)', function () {
  this.timeout(180_000);
  let cluster: PostgresCluster | undefined;
  let server: TestServer;
  let worker: FleetWorker | undefined;
  let root: string;
  let url: string;

  before(async function () {
    requirePostgres(this);
    cluster = await PostgresCluster.start();
    url = cluster.createDatabase('service');
    root = realpathSync(mkdtempSync(join(tmpdir(), 'klvscope-fleet-recordings-')));
    server = await startTestServer({ catalogUrl: url, defaultSettings: { ...defaultSettings(root), browseRoots: [root] } });
    worker = await FleetWorker.start({ catalogUrl: url, workDir: join(root, '..', `${root.split('/').at(-1)}-worker`), checks: { checks: [...BUILT_IN_CHECKS], rules: {} }, leaseSeconds: 10, pollMs: 100 });
  });
  after(async function () {
    await worker?.stop();
    await server?.close();
    cluster?.remove();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('queues a folder as a batch, runs it on the worker and lists the worker and the queue', async function () {
    for (let i = 0; i < 4; i++) writeGenerated(root, `r${i}.ts`, { durationSeconds: 2 + i, bitrate: 2_000_000, klv: {}, seed: i + 1 });
    const queued = await server.call('/automation/batch', { method: 'POST', body: { folder: root, glob: 'r*.ts' } });
    expect(queued.status, queued.text).to.equal(202);
    const batch = queued.json as { batch: string; queued: number; paths: string[] };
    expect(batch.queued).to.equal(4);
    expect(batch.paths.map((p) => p.slice(root.length + 1))).to.deep.equal(['r0.ts', 'r1.ts', 'r2.ts', 'r3.ts']);
    const state = await batchDone(server, batch.batch);
    expect(state.counts.completed).to.equal(4);
    const fleet = await server.call('/fleet');
    expect(fleet.status).to.equal(200);
    const body = fleet.json as { workers: { id: string; state: string; jobsDone: number; pid: number }[]; queue: Record<string, number> };
    expect(body.workers).to.have.length(1);
    expect(body.workers[0]).to.include({ id: worker!.id, pid: process.pid, jobsDone: 4 });
    expect(['idle', 'working']).to.include(body.workers[0].state);
    expect(body.queue.completed).to.equal(4);
  });

  it("serves a batch's file by its hash as a single node would, copied from the fleet on demand", async function () {
    const path = join(root, 'r2.ts');
    const single = await inspectWithStore(path, join(root, '..', `${root.split('/').at(-1)}-single`), loadCliChecks({}));
    const hash = single.result.fileHash;
    const stage = await server.call(`/automation/files/${hash}/stages/process`);
    expect(stage.status, stage.text).to.equal(200);
    const payload = (stage.json as { payload: { checks: { checkId: string; status: string; pointsStored: number }[] } }).payload;
    expect(payload.checks.map(({ checkId, status, pointsStored }) => ({ checkId, status, pointsStored }))).to.deep.equal(
      single.result.process.checks.map(({ checkId, status, pointsStored }) => ({ checkId, status, pointsStored })),
    );
    const latest = await server.call(`/automation/files/${hash}/ingest-runs/latest`);
    expect(latest.status, latest.text).to.equal(200);
    const runId = (latest.json as { id: string }).id;
    const pcr = await server.call(`/automation/ingest-runs/${runId}/mpegts/pcr-values?format=ndjson`);
    expect(pcr.status, pcr.text.slice(0, 300)).to.equal(200);
    expect(pcr.text.trim().split('\n')).to.have.length(single.result.ingest.counts.pcr);
  });

  it('inspects a file through POST /automation/file-session/inspect on the worker, with the report a single node makes', async function () {
    const { path } = writeGenerated(root, 'session.ts', { durationSeconds: 3, bitrate: 3_000_000, klv: {}, seed: 9, faults: [{ kind: 'pcr-gap', atSeconds: 1.5 }] });
    const before = (await server.call('/fleet')).json as { workers: { jobsDone: number }[] };
    const answer = await server.call('/automation/file-session/inspect', { method: 'POST', body: { filePath: path } });
    expect(answer.status, answer.text).to.equal(200);
    // The worker's count moves with its next heartbeat (one a second).
    let jobsDone = before.workers[0].jobsDone;
    for (let beats = 0; beats < 30 && jobsDone === before.workers[0].jobsDone; beats++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      jobsDone = ((await server.call('/fleet')).json as { workers: { jobsDone: number }[] }).workers[0].jobsDone;
    }
    expect(jobsDone).to.equal(before.workers[0].jobsDone + 1);
    const single = await inspectWithStore(path, join(root, '..', `${root.split('/').at(-1)}-single2`), loadCliChecks({}));
    const report = (answer.json as { report: { verdict: string; checks: { checkId: string; status: string }[] } }).report;
    expect(report.verdict).to.equal(single.result.report.verdict);
    expect(report.checks.map((c) => [c.checkId, c.status])).to.deep.equal(single.result.report.checks.map((c) => [c.checkId, c.status]));
  });

  it('refuses a batch outside the browse roots (403) and an unknown batch (404), with the JSON error body', async function () {
    const outside = await server.call('/automation/batch', { method: 'POST', body: { folder: '/etc' } });
    expect(outside.status).to.equal(403);
    expect((outside.json as { error: { code: string } }).error.code).to.equal('ERR_FILE_OUTSIDE_ROOTS');
    const unknown = await server.call('/automation/batch/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).to.equal(404);
    expect((unknown.json as { error: { code: string } }).error.code).to.equal('ERR_FLEET_JOB_NOT_FOUND');
  });

  it('answers 503 while PostgreSQL is down, and completes a batch queued before it stopped once it is back', async function () {
    for (let i = 0; i < 6; i++) writeGenerated(root, `outage-${i}.ts`, { durationSeconds: 4, bitrate: 4_000_000, klv: {}, seed: 20 + i });
    const queued = await server.call('/automation/batch', { method: 'POST', body: { folder: root, glob: 'outage-*.ts' } });
    expect(queued.status, queued.text).to.equal(202);
    cluster!.stopServer();
    const stoppedAt = Date.now();
    try {
      const down = await server.call('/fleet');
      expect(down.status, down.text).to.equal(503);
      const error = (down.json as { error: { code: string; message: string } }).error;
      expect(error.code).to.equal('ERR_CATALOG_UNAVAILABLE');
      expect(error.message).to.match(/the catalog's PostgreSQL at 127\.0\.0\.1:\d+\/service cannot be reached/);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 10_000 - (Date.now() - stoppedAt))));
    } finally {
      cluster!.startServer();
    }
    const state = await batchDone(server, (queued.json as { batch: string }).batch);
    expect(state.counts).to.include({ completed: 6, failed: 0 });
    expect((await server.call('/fleet')).status).to.equal(200);
  });
});

describe('the inspection service without a fleet', function () {
  it('answers the fleet routes with 409 ERR_FLEET_DISABLED', async function () {
    const server = await startTestServer();
    try {
      const answer = await server.call('/fleet');
      expect(answer.status).to.equal(409);
      expect((answer.json as { error: { code: string; message: string } }).error.message).to.contain('--catalog');
    } finally {
      await server.close();
    }
  });
});
