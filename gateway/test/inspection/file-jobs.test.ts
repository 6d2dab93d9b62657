import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { GeneratorOptions } from '@klvscope/core';
import { fileTestServerForSuite, finishedJob, writeGenerated, type FileTestServer, type JobBody } from './file-test-server.js';

const STREAM: GeneratorOptions = { durationSeconds: 4, bitrate: 3_000_000, seed: 21, audio: true, klv: { carriage: 'sync' } };
/** Another content for each file (files are known by content: the same bytes share their cached stages). */
let seed = 100;
const stream = (): GeneratorOptions => ({ ...STREAM, seed: seed++ });

interface Stage {
  stage: string;
  reused: boolean;
}

describe('inspection service: file analysis, ingest and processing jobs', function () {
  this.timeout(120_000);
  let server: FileTestServer;
  fileTestServerForSuite((started) => (server = started));

  async function submit(kind: 'analysis' | 'ingest' | 'process', filePath: string): Promise<JobBody> {
    const started = await server.call(`/${kind}/file/jobs`, { method: 'POST', body: { filePath } });
    expect(started.status, started.text).to.equal(202);
    return started.json as JobBody;
  }

  it('analyses a file synchronously, then answers from the cache', async () => {
    const { path } = writeGenerated(server.root, 'sync.ts', stream());
    const first = await server.call('/analysis/file', { method: 'POST', body: { filePath: path } });
    expect(first.status, first.text).to.equal(200);
    const body = first.json as { fileHash: string; path: string; reused: boolean; analyze: { inventory: { totalPackets: number; programs: unknown[] }; klv: unknown[] } };
    expect([body.path, body.reused, body.fileHash]).to.deep.equal([path, false, body.fileHash]);
    expect(body.fileHash).to.match(/^[0-9a-f]{64}$/);
    expect(body.analyze.inventory.totalPackets).to.be.greaterThan(0);
    expect(body.analyze.klv).to.have.length(1);
    const second = (await server.call('/analysis/file', { method: 'POST', body: { filePath: path } })).json as typeof body;
    expect(second).to.deep.equal({ ...body, reused: true });
  });

  it('runs analysis, ingest and process jobs to completion, each reusing the stages before it, with progress over every file read', async () => {
    const { path, size } = writeGenerated(server.root, 'jobs.ts', stream());

    const analysis = await submit('analysis', path);
    expect(analysis).to.include({ kind: 'analysis', subject: path });
    expect(['queued', 'running']).to.include(analysis.status);
    const analysed = await finishedJob(server, `/analysis/file/jobs/${analysis.id}`);
    expect(analysed.job.status, JSON.stringify(analysed.job.error)).to.equal('completed');
    // Hashing the new file, then the analyze pass: two reads of it.
    expect(analysed.job.progress).to.deep.equal({ bytesDone: 2 * size, bytesTotal: 2 * size });
    expect(analysed.seen.map((p) => p.bytesDone)).to.deep.equal([...analysed.seen.map((p) => p.bytesDone)].sort((a, b) => a - b));
    expect(analysed.job.result).to.include({ path, reused: false });
    const fileHash = analysed.job.result?.fileHash as string;

    const ingest = await finishedJob(server, `/ingest/file/jobs/${(await submit('ingest', path)).id}`);
    expect(ingest.job.status).to.equal('completed');
    expect(ingest.job.progress).to.deep.equal({ bytesDone: size, bytesTotal: size });
    const ingested = ingest.job.result as { fileHash: string; ingestRunId: string; stages: Stage[] };
    expect(ingested.fileHash).to.equal(fileHash);
    expect(ingested.stages.map((s) => [s.stage, s.reused])).to.deep.equal([['analyze', true], ['ingest', false]]);
    expect((await server.call(`/automation/ingest-runs/${ingested.ingestRunId}`)).json).to.include({ status: 'completed', hash: fileHash });

    const processed = await finishedJob(server, `/process/file/jobs/${(await submit('process', path)).id}`);
    expect(processed.job.status).to.equal('completed');
    // process reads stored observations, not the file.
    expect(processed.job.progress).to.deep.equal({ bytesDone: 0, bytesTotal: 0 });
    const result = processed.job.result as { ingestRunId: string; stages: Stage[]; process: { checks: Array<{ checkId: string }> } };
    expect(result.ingestRunId).to.equal(ingested.ingestRunId);
    expect(result.stages.map((s) => s.reused)).to.deep.equal([true, true, false]);
    expect(result.process.checks).to.have.length(17);
    expect(result.process.checks[0]).to.include.keys('checkId', 'summary');
    expect(result.process.checks[0]).to.not.have.any.keys('topViolations', 'rules');

    // A second ingest job reuses the completed run rather than making another.
    const again = await finishedJob(server, `/ingest/file/jobs/${(await submit('ingest', path)).id}`);
    expect(again.job.result).to.include({ ingestRunId: ingested.ingestRunId });
    expect(((await server.call(`/automation/files/${fileHash}/ingest-runs`)).json as { ingestRuns: unknown[] }).ingestRuns).to.have.length(1);
  });

  it('runs the stages a process job needs first: a file never seen is hashed, then analysed, ingested and checked in one pass', async () => {
    const { path, size } = writeGenerated(server.root, 'fresh.ts', stream());
    const { job } = await finishedJob(server, `/process/file/jobs/${(await submit('process', path)).id}`);
    expect(job.status).to.equal('completed');
    expect(job.progress).to.deep.equal({ bytesDone: 2 * size, bytesTotal: 2 * size });
    expect((job.result as { stages: Stage[] }).stages.map((s) => [s.stage, s.reused])).to.deep.equal([['analyze', false], ['ingest', false], ['process', false]]);
  });

  it('finds a job only on the path of its kind, and refuses to cancel a finished one', async () => {
    const { path } = writeGenerated(server.root, 'kinds.ts', stream());
    const analysis = await finishedJob(server, `/analysis/file/jobs/${(await submit('analysis', path)).id}`);
    const ingest = await finishedJob(server, `/ingest/file/jobs/${(await submit('ingest', path)).id}`);
    for (const path of [`/ingest/file/jobs/${analysis.job.id}`, `/process/file/jobs/${analysis.job.id}`, `/analysis/file/jobs/${ingest.job.id}`, '/analysis/file/jobs/no-such-job']) {
      const answer = await server.call(path);
      expect(answer.status, path).to.equal(404);
      expect(answer.json, path).to.have.nested.property('error.code', 'ERR_JOB_NOT_FOUND');
    }
    expect((await server.call(`/ingest/file/jobs/${analysis.job.id}`, { method: 'DELETE' })).status).to.equal(404);
    const finished = await server.call(`/ingest/file/jobs/${ingest.job.id}`, { method: 'DELETE' });
    expect(finished.status).to.equal(409);
    expect(finished.json).to.have.nested.property('error.code', 'ERR_JOB_FINISHED');
    expect((await server.call(`/process/file/jobs/${ingest.job.id}`, { method: 'DELETE' })).status).to.equal(404);
  });

  it('cancels an ingest job: it ends cancelled and leaves no completed run', async () => {
    const { path } = writeGenerated(server.root, 'long.ts', { durationSeconds: 60, bitrate: 5_000_000, seed: 3, klv: { carriage: 'sync' } });
    const analysed = (await server.call('/analysis/file', { method: 'POST', body: { filePath: path } })).json as { fileHash: string };
    const job = await submit('ingest', path);
    const cancelled = await server.call(`/ingest/file/jobs/${job.id}`, { method: 'DELETE' });
    expect(cancelled.status, cancelled.text).to.equal(200);
    expect(cancelled.json).to.include({ id: job.id, status: 'cancelled', result: null });
    expect((await server.call(`/ingest/file/jobs/${job.id}`)).json).to.include({ status: 'cancelled' });

    const runs = ((await server.call(`/automation/files/${analysed.fileHash}/ingest-runs`)).json as { ingestRuns: Array<{ id: string; status: string }> }).ingestRuns;
    // The job starts as it is submitted, so the cancel finds it ingesting (a cancelled run), or at worst before its run.
    expect(runs.length).to.be.at.most(1);
    expect(runs.every((run) => run.status === 'cancelled')).to.equal(true);
    for (const run of runs) {
      expect(existsSync(join(server.dataDir, 'runs', `${run.id}.sqlite`))).to.equal(false);
      const datasets = await server.call(`/automation/ingest-runs/${run.id}/mpegts/pid-stats`);
      expect(datasets.status).to.equal(409);
      expect(datasets.json).to.have.nested.property('error.code', 'ERR_INGEST_RUN_NOT_COMPLETED');
    }
    const latest = await server.call(`/automation/files/${analysed.fileHash}/ingest-runs/latest`);
    expect(latest.status).to.equal(404);
    expect(latest.json).to.have.nested.property('error.code', 'ERR_INGEST_RUN_NOT_FOUND');
  });

  it('accepts a job on a file that is not MPEG-TS, which then fails saying so', async () => {
    const { writeFileSync } = await import('node:fs');
    const path = join(server.root, 'notes.ts');
    writeFileSync(path, 'not a transport stream\n'.repeat(100));
    const { job } = await finishedJob(server, `/analysis/file/jobs/${(await submit('analysis', path)).id}`);
    expect(job.status).to.equal('failed');
    expect(job.error?.code).to.equal('ERR_NOT_TRANSPORT_STREAM');
  });
});
