import { expect } from 'chai';
import { createReadStream } from 'node:fs';
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { defineCheck } from '../../src/kernel/define-check.js';
import type { Observation } from '../../src/kernel/observations.js';
import { runPipeline } from '../../src/kernel/pipeline.js';
import { createKlvAwareTsDemuxer } from '../../src/klv/st1402-demuxer.js';
import { generateTransportStream, parseFaultSpec } from '../../src/gen/index.js';
import { getFile, getFileRecord } from '../../src/store/catalog-files.js';
import { getIngestRun, listIngestRuns } from '../../src/store/catalog-ingest-runs.js';
import { getStagePayload } from '../../src/store/catalog-stages.js';
import { readDataset } from '../../src/store/datasets/dataset-query.js';
import { RAW_DATASET_NAMES } from '../../src/store/datasets/raw-datasets.js';
import { stageKey } from '../../src/workflow/compatibility-key.js';
import { Store, type StoreOptions } from '../../src/store/store.js';
import { hashFile } from '../../src/workflow/file-hash.js';
import { FileWorkflow } from '../../src/workflow/file-workflow.js';
import type { InspectionResult } from '../../src/workflow/stage-payloads.js';
import { JobQueue } from '../../src/workflow/job-queue.js';
import { WorkflowError } from '../../src/workflow/workflow-error.js';
import { startChild } from '../store/node-child.js';
import { useTemporaryFolder } from '../store/temporary-folder.js';
import { nodeFiles } from './node-file-source.js';

const files = nodeFiles;

/** One point per PCR interval of the video PID, a violation above the rule. */
const pcrGaps = defineCheck({
  id: 'pcr-gaps',
  version: '1.0.0',
  title: 'PCR gaps',
  rules: z.object({ maxIntervalMs: z._default(z.number(), 100) }),
  consumes: ['pcr'],
  create(ctx) {
    let last: number | null = null;
    return {
      pcr(pcr) {
        if (pcr.t === null) return;
        if (last !== null) {
          const ms = (pcr.t - last) * 1000;
          ctx.point(pcr, { message: 'PCR interval', value: ms, unit: 'ms', violation: ms > ctx.rules.maxIntervalMs, type: 'pcr-gap' });
        }
        last = pcr.t;
      },
    };
  },
});

/** Counts KLV packets: a point per packet, never a violation. */
const klvCount = defineCheck({
  id: 'klv-count',
  version: '1.0.0',
  title: 'KLV packets',
  consumes: ['klv-packet'],
  create(ctx) {
    return { 'klv-packet': (p) => ctx.point(p, { message: 'KLV packet', value: p.length, unit: 'bytes' }) };
  },
});

describe('FileWorkflow', function () {
  this.timeout(60_000);
  const folder = useTemporaryFolder();

  async function writeStream(name: string, faults: string[] = [], seconds = 6): Promise<string> {
    const { bytes } = generateTransportStream({
      durationSeconds: seconds,
      bitrate: 2_000_000,
      seed: 3,
      klv: { carriage: 'async' },
      faults: faults.map((f) => parseFaultSpec(f)),
    });
    const path = join(folder.path, name);
    await writeFile(path, bytes);
    return path;
  }

  async function withStore<T>(work: (store: Store) => Promise<T>, options: Omit<StoreOptions, 'dataDir'> = {}): Promise<T> {
    const store = await Store.open({ dataDir: join(folder.path, 'data'), ...options });
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  }

  it('runs every stage the first time and reuses every one for an unchanged file', async () => {
    const path = await writeStream('a.ts', ['pcr-gap@2']);
    const first = await withStore((store) => new FileWorkflow({ store, files, checks: [pcrGaps, klvCount] }).inspect(path));
    expect(first.stages.map((s) => [s.stage, s.reused])).to.deep.equal([
      ['analyze', false],
      ['ingest', false],
      ['process', false],
      ['report', false],
    ]);
    const second = await withStore((store) => new FileWorkflow({ store, files, checks: [pcrGaps, klvCount] }).inspect(path));
    expect(second.stages.map((s) => [s.stage, s.reused])).to.deep.equal([
      ['analyze', true],
      ['ingest', true],
      ['process', true],
      ['report', false],
    ]);
    expect(second.fileHash).to.equal(first.fileHash);
    expect(second.latestIngestRunId).to.equal(first.latestIngestRunId);
    expect(second.report).to.deep.equal(first.report);
    expect(first.report.verdict).to.equal('fail');
    expect(first.report.topViolations[0]).to.include({ checkId: 'pcr-gaps', type: 'pcr-gap' });
  });

  it('reads the file once on a first inspection (analyze, ingest and the checks in one pass, the hash beside it), with the payloads of separate stages', async () => {
    const path = await writeStream('one-pass.ts', ['pcr-gap@2']);
    let opened = 0;
    const counting = { size: (file: string) => files.size(file), open: (file: string, options: { signal?: AbortSignal }) => (opened++, files.open(file, options)) };
    const inFolder = async (name: string, work: (store: Store) => Promise<InspectionResult>): Promise<InspectionResult> => {
      const store = await Store.open({ dataDir: join(folder.path, name) });
      try {
        return await work(store);
      } finally {
        await store.close();
      }
    };
    const onePass = await inFolder('one', (store) => new FileWorkflow({ store, files: counting, checks: [pcrGaps, klvCount] }).inspect(path));
    expect(opened, 'reads of the file').to.equal(1);
    const separate = await inFolder('separate', async (store) => {
      const workflow = new FileWorkflow({ store, files, checks: [pcrGaps, klvCount] });
      const file = await workflow.identify(path);
      await workflow.analyze(file);
      await workflow.ingest(file);
      await workflow.process(file.hash);
      return workflow.inspect(path);
    });
    const withoutTimes = (payload: object): unknown => JSON.parse(JSON.stringify(payload, (key, value: unknown) => (key === 'elapsedMs' || key === 'runId' ? undefined : value)));
    expect(withoutTimes(onePass.analyze)).to.deep.equal(withoutTimes(separate.analyze));
    expect(withoutTimes(onePass.ingest)).to.deep.equal(withoutTimes(separate.ingest));
    expect(withoutTimes(onePass.process)).to.deep.equal(withoutTimes(separate.process));
  });

  it('hashes content new to the catalog beside its first pass, records it, and reuses every stage for it at any path of that content', async () => {
    const path = await writeStream('new-content.ts', ['pcr-gap@2']);
    await withStore(async (store) => {
      const workflow = new FileWorkflow({ store, files, checks: [pcrGaps, klvCount] });
      const first = await workflow.inspect(path);
      const hash = await hashFile(path);
      expect(first.fileHash).to.equal(hash);
      expect(first.stages.map((s) => s.reused)).to.deep.equal([false, false, false, false]);
      expect(getFile(store.catalog.db, hash)).to.include({ hash, firstPath: path });
      expect(getFileRecord(store.catalog.db, path)).to.include({ hash });
      expect(listIngestRuns(store.catalog.db, hash).map((r) => [r.id, r.status])).to.deep.equal([[first.latestIngestRunId, 'completed']]);
      expect(workflow.firstStageToRun(hash)).to.equal('report');

      // The same content elsewhere is of a known size: hashed first, and every stage reused.
      const copy = join(folder.path, 'new-content-copy.ts');
      await copyFile(path, copy);
      expect(await workflow.identify(copy, { deferNewContent: true })).to.include({ hash, hashed: true });
      expect((await workflow.inspect(copy)).stages.map((s) => s.reused)).to.deep.equal([true, true, true, false]);

      // Other content of that size: hashed first too, and inspected as the new content it is.
      const changed = await readFile(path);
      changed[changed.length - 1] ^= 0xff;
      const other = join(folder.path, 'new-content-changed.ts');
      await writeFile(other, changed);
      const otherResult = await workflow.inspect(other);
      expect(otherResult.fileHash).to.equal(await hashFile(other)).and.not.equal(hash);
      expect(otherResult.stages.map((s) => s.reused)).to.deep.equal([false, false, false, false]);
    });
  });

  it('a first pass over new content that is cancelled leaves no run, no file record and no run file; the next inspection completes', async () => {
    const path = await writeStream('new-cancelled.ts', [], 20);
    await withStore(async (store) => {
      const workflow = new FileWorkflow({ store, files, checks: [pcrGaps] });
      const controller = new AbortController();
      const error = await workflow
        .inspect(path, { signal: controller.signal, onProgress: (done, _total, phase) => phase === 'ingest' && done > 0 && controller.abort() })
        .catch((e: unknown) => e);
      expect(error, 'the inspection stops with the abort').to.have.property('name', 'AbortError');
      expect(store.catalog.db.exec('SELECT count(*) FROM ingest_runs')[0].values[0][0], 'runs').to.equal(0);
      expect(getFileRecord(store.catalog.db, path)).to.be.undefined;
      expect(await readdir(join(store.dataDir, 'runs'))).to.deep.equal([]);
      const done = await workflow.inspect(path);
      expect(done.fileHash).to.equal(await hashFile(path));
      expect(getIngestRun(store.catalog.db, done.latestIngestRunId)).to.include({ status: 'completed', hash: done.fileHash });
    });
  });

  it('keeps an error among the top violations when many warnings come before it', async () => {
    /** A warning at each of the first 100 PCRs, then one error. */
    const lateError = defineCheck({
      id: 'late-error',
      version: '1.0.0',
      title: 'late error',
      rules: z.object({}),
      consumes: ['pcr'],
      create(ctx) {
        let seen = 0;
        return {
          pcr(pcr) {
            seen++;
            if (seen <= 100) ctx.point(pcr, { message: `warning ${seen}`, value: seen, violation: true, severity: 'warning' });
            else if (seen === 120) ctx.point(pcr, { message: 'the error', value: seen, violation: true, severity: 'error' });
          },
        };
      },
    });
    const path = await writeStream('late.ts');
    const result = await withStore((store) => new FileWorkflow({ store, files, checks: [lateError] }).inspect(path));
    const top = result.process.checks[0].topViolations.map((p) => p.message);
    expect(top).to.have.length(20);
    expect(top[0]).to.equal('the error');
    expect(top.slice(1)).to.deep.equal(Array.from({ length: 19 }, (_, i) => `warning ${i + 1}`));
  });

  it('after a rule change runs process and report again over the stored run, not the file', async () => {
    const path = await writeStream('b.ts', ['pcr-gap@2']);
    const strict = await withStore((store) => new FileWorkflow({ store, files, checks: [pcrGaps] }).inspect(path));
    const lenient = await withStore((store) =>
      new FileWorkflow({ store, files, checks: [pcrGaps], rules: { 'pcr-gaps': { maxIntervalMs: 10_000 } } }).inspect(path),
    );
    expect(lenient.stages.map((s) => [s.stage, s.reused])).to.deep.equal([
      ['analyze', true],
      ['ingest', true],
      ['process', false],
      ['report', false],
    ]);
    expect(lenient.latestIngestRunId).to.equal(strict.latestIngestRunId);
    expect(strict.process.checks[0].summary.violations).to.be.greaterThan(0);
    expect(lenient.process.checks[0].summary.violations).to.equal(0);
    expect(lenient.process.checks[0].summary.points).to.equal(strict.process.checks[0].summary.points);
  });

  it('stores as many rows of each kind as the engine makes observations, and process equals a run over the file', async () => {
    const path = await writeStream('c.ts', ['drop-packet@1', 'klv-checksum@3']);
    const counts: Record<string, number> = {};
    const direct = await runPipeline(createReadStream(path), {
      checks: [pcrGaps, klvCount],
      demuxerFactory: createKlvAwareTsDemuxer,
      observationSinks: [(o: Observation) => (counts[o.kind] = (counts[o.kind] ?? 0) + 1)],
    });
    const result = await withStore((store) => new FileWorkflow({ store, files, checks: [pcrGaps, klvCount] }).inspect(path));
    const stored = Object.fromEntries(Object.entries(result.ingest.counts).filter(([, n]) => n > 0));
    expect(stored).to.deep.equal(counts);
    expect(counts['ts-error']).to.be.greaterThan(0);
    expect(result.process.checks.map((c) => c.summary)).to.deep.equal(direct.checks.map((c) => c.summary));
  });

  it('stores in the ingest\'s pass the points that process alone stores over the stored run, across parts', async () => {
    const path = await writeStream('p.ts', ['pcr-gap@2', 'klv-checksum@3'], 10);
    // Parts end after every 200 rows (observations and points alike): the run has many.
    await withStore(
      async (store) => {
        const workflow = new FileWorkflow({ store, files, checks: [pcrGaps, klvCount] });
        const onePass = await workflow.inspect(path);
        expect(onePass.stages.map((s) => [s.stage, s.reused])).to.deep.equal([
          ['analyze', false],
          ['ingest', false],
          ['process', false],
          ['report', false],
        ]);
        const runId = onePass.latestIngestRunId;
        const pointsOf = (checkId: string) => store.readRun(runId, (run) => run.readCheckPoints(onePass.process.checkKey, checkId, { limit: -1, offset: 0 }));
        const passPoints = [await pointsOf('pcr-gaps'), await pointsOf('klv-count')];
        expect(passPoints.map((page) => page.total)).to.deep.equal(onePass.process.checks.map((check) => check.pointsStored));
        expect(passPoints[0].points.some((point) => point.violation)).to.equal(true);
        expect(passPoints[1].total).to.equal(onePass.ingest.counts['klv-packet']);
        const parts = await store.readRun(runId, (run) => [run.parts.length, run.pointParts(onePass.process.checkKey)?.parts.length]);
        expect(parts[0]).to.be.greaterThan(5);
        expect(parts[1]).to.be.greaterThan(2);
        // The pass made no klv-field (no check reads it): the parts keep them as items, and give back what a pass making every kind emits.
        const emitted: Observation[] = [];
        await runPipeline(createReadStream(path), { checks: [], demuxerFactory: createKlvAwareTsDemuxer, observationSinks: [(o: Observation) => emitted.push(o)] });
        expect(emitted.some((o) => o.kind === 'klv-field')).to.equal(true);
        expect(await store.readRun(runId, (run) => [...run.replay()])).to.deep.equal(emitted);

        const alone = await workflow.process(onePass.fileHash);
        expect(alone.observations).to.equal(onePass.process.observations);
        const { elapsedMs: _a, ...aloneRest } = alone;
        const { elapsedMs: _b, ...passRest } = onePass.process;
        expect(aloneRest).to.deep.equal(passRest);
        expect([await pointsOf('pcr-gaps'), await pointsOf('klv-count')]).to.deep.equal(passPoints);
      },
      { runParts: { partBytes: 1, rowsPerTransaction: 200 } },
    );
  });

  it('a cancelled ingest leaves no completed run and no run file, and the next one completes', async () => {
    const path = await writeStream('d.ts', [], 20);
    await withStore(async (store) => {
      const workflow = new FileWorkflow({ store, files, checks: [pcrGaps] });
      const file = await workflow.identify(path);
      const controller = new AbortController();
      let error: unknown;
      try {
        await workflow.ingest(file, { signal: controller.signal, onProgress: (done) => done > 0 && controller.abort() });
      } catch (caught) {
        error = caught;
      }
      expect(error, 'the ingest stops with the abort').to.be.instanceOf(Error);
      const runs = listIngestRuns(store.catalog.db, file.hash);
      expect(runs.map((r) => r.status)).to.deep.equal(['cancelled']);
      expect(await readdir(join(store.dataDir, 'runs'))).to.deep.equal([]);
      expect(workflow.firstStageToRun(file.hash)).to.equal('analyze');
      const done = await workflow.ingest(file);
      expect(getIngestRun(store.catalog.db, done.runId)?.status).to.equal('completed');
    });
  });

  it('an ingest job cancelled while it runs ends cancelled, with no completed run', async () => {
    const path = await writeStream('j.ts', [], 20);
    await withStore(async (store) => {
      const workflow = new FileWorkflow({ store, files, checks: [pcrGaps] });
      const file = await workflow.identify(path);
      const queue = new JobQueue();
      let jobId = '';
      const job = queue.submit('ingest', path, (ctx) =>
        workflow.ingest(file, {
          signal: ctx.signal,
          onProgress: (done, total) => {
            ctx.progress(done, total);
            if (done > 0 && queue.get(jobId)?.status === 'running') queue.cancel(jobId);
          },
        }),
      );
      jobId = job.id;
      const finished = await queue.wait(job.id);
      expect(finished.status).to.equal('cancelled');
      expect(finished.progress.bytesDone).to.be.greaterThan(0).and.lessThan(file.size);
      expect(listIngestRuns(store.catalog.db, file.hash).map((r) => r.status)).to.deep.equal(['cancelled']);
      expect(await readdir(join(store.dataDir, 'runs'))).to.deep.equal([]);
    });
  });

  it('refuses process before any completed ingest run, with a stable code', async () => {
    const path = await writeStream('e.ts');
    await withStore(async (store) => {
      const workflow = new FileWorkflow({ store, files, checks: [pcrGaps] });
      const file = await workflow.identify(path);
      let error: unknown;
      try {
        await workflow.process(file.hash);
      } catch (caught) {
        error = caught;
      }
      expect(error).to.be.instanceOf(WorkflowError).with.property('code', 'ERR_STAGE_NOT_READY');
    });
  });

  it('lists a process cached for an older run as cached but runs it next, with no report until then', async () => {
    const path = await writeStream('k.ts', ['pcr-gap@2']);
    await withStore(async (store) => {
      const workflow = new FileWorkflow({ store, files, checks: [pcrGaps] });
      const done = await workflow.inspect(path);
      const file = { hash: done.fileHash, path: done.path };
      expect(workflow.cacheState(file.hash)).to.deep.equal({ cachedStages: ['analyze', 'ingest', 'process'], firstStageToRun: 'report' });
      expect(workflow.reportIfReady(file)).to.deep.equal(done.report);
      const stored = getStagePayload(store.catalog.db, file.hash, 'process', stageKey(workflow.key, 'process'));
      expect(workflow.cachedWithTime(file.hash, 'process')).to.deep.equal({ payload: stored?.payload, createdMs: stored?.createdMs });

      await workflow.ingest(await workflow.identify(path));
      expect(workflow.cacheState(file.hash)).to.deep.equal({ cachedStages: ['analyze', 'ingest', 'process'], firstStageToRun: 'process' });
      expect(workflow.firstStageToRun(file.hash)).to.equal('process');
      expect(workflow.reusablePayloads(file.hash)).to.have.all.keys('analyze', 'ingest');
      expect(workflow.reportIfReady(file)).to.equal(null);
    });
  });

  it('says a file that is not a transport stream is not one, and a missing file is unreadable', async () => {
    const text = join(folder.path, 'notes.txt');
    await writeFile(text, 'not a transport stream\n'.repeat(100));
    await withStore(async (store) => {
      const workflow = new FileWorkflow({ store, files, checks: [pcrGaps] });
      const errors: unknown[] = [];
      for (const path of [text, join(folder.path, 'missing.ts')]) {
        try {
          await workflow.inspect(path);
        } catch (caught) {
          errors.push(caught);
        }
      }
      expect(errors.map((e) => (e as WorkflowError).code)).to.deep.equal(['ERR_NOT_TRANSPORT_STREAM', 'ERR_FILE_UNREADABLE']);
    });
  });
});

describe('FileWorkflow after a crash', function () {
  this.timeout(60_000);
  const folder = useTemporaryFolder();

  it('an ingest of new content killed (SIGKILL) before its hash came leaves no run, no file record and no parts; the file then inspects whole', async () => {
    const { bytes } = generateTransportStream({ durationSeconds: 20, bitrate: 2_000_000, seed: 6, klv: { carriage: 'async' } });
    const path = join(folder.path, 'new-killed.ts');
    await writeFile(path, bytes);
    const dataDir = join(folder.path, 'data-new');
    const child = startChild('ingest-until-killed.ts', [dataDir, path, 'deferred']);
    const { runId } = JSON.parse(await child.nextLine()) as { runId: string };
    expect(runId, 'a running run without its hash yet').to.be.a('string');
    await child.kill();

    const store = await Store.open({ dataDir });
    try {
      expect(store.interruptedRunIds).to.deep.equal([runId]);
      expect(getIngestRun(store.catalog.db, runId), 'its row, which no file could list, is gone').to.equal(undefined);
      expect(store.catalog.db.exec('SELECT count(*) FROM ingest_runs')[0].values[0][0]).to.equal(0);
      expect(getFileRecord(store.catalog.db, path)).to.equal(undefined);
      expect(await readdir(join(dataDir, 'runs'))).to.deep.equal([]);
      const result = await new FileWorkflow({ store, files, checks: [pcrGaps] }).inspect(path);
      expect(result.fileHash).to.equal(await hashFile(path));
      expect(getIngestRun(store.catalog.db, result.latestIngestRunId)).to.include({ status: 'completed', hash: result.fileHash });
    } finally {
      await store.close();
    }
  });

  it('an ingest killed (SIGKILL) with several parts saved is marked interrupted and its parts deleted; the completed run survives whole', async () => {
    const { bytes } = generateTransportStream({ durationSeconds: 20, bitrate: 2_000_000, seed: 5, klv: { carriage: 'async' } });
    const path = join(folder.path, 'long.ts');
    await writeFile(path, bytes);
    const dataDir = join(folder.path, 'data');
    const runParts = { partBytes: 1, rowsPerTransaction: 200 };
    const completed = await (async () => {
      const store = await Store.open({ dataDir, runParts });
      try {
        const workflow = new FileWorkflow({ store, files, checks: [pcrGaps] });
        const payload = await workflow.ingest(await workflow.identify(path));
        const datasets = await store.readRun(payload.runId, (run) => RAW_DATASET_NAMES.map((name) => readDataset(run, name, { limit: 100_000 })));
        return { payload, datasets };
      } finally {
        await store.close();
      }
    })();

    const child = startChild('ingest-until-killed.ts', [dataDir, path]);
    const { runId } = JSON.parse(await child.nextLine()) as { runId: string };
    const saved = (await readdir(join(dataDir, 'runs', runId))).filter((name) => name.startsWith('observations-'));
    await child.kill();
    expect(saved.length, 'parts saved before the kill').to.be.greaterThan(2);

    const store = await Store.open({ dataDir, runParts });
    try {
      expect(store.interruptedRunIds).to.deep.equal([runId]);
      expect(getIngestRun(store.catalog.db, runId)?.status).to.equal('interrupted');
      expect(await readdir(join(dataDir, 'runs')), 'the interrupted run left no file').to.deep.equal([completed.payload.runId]);
      expect(getIngestRun(store.catalog.db, completed.payload.runId)?.status).to.equal('completed');
      const datasets = await store.readRun(completed.payload.runId, (run) => RAW_DATASET_NAMES.map((name) => readDataset(run, name, { limit: 100_000 })));
      expect(datasets, 'the completed run reads back whole').to.deep.equal(completed.datasets);
      const workflow = new FileWorkflow({ store, files, checks: [pcrGaps] });
      const file = await workflow.identify(path);
      expect(file.hashed, 'the file record survived too').to.equal(false);
      const reread = await workflow.ingest(file);
      expect(reread.counts).to.deep.equal(completed.payload.counts);
      const result = await workflow.inspect(path);
      expect(result.latestIngestRunId).to.equal(reread.runId);
    } finally {
      await store.close();
    }
  });
});
