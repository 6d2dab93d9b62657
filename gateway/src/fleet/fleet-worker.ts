/**
 * `klvscope worker`: claims inspection jobs from the fleet's queue and runs
 * each as `klvscope inspect --store` would, in a scratch data folder of its
 * own, then publishes the result to the fleet's PostgreSQL
 * (run-publication.ts). A heartbeat each second records what it does
 * (fleet_workers) and renews the lease of its jobs; a worker that dies
 * stops renewing, and its job runs again elsewhere, from the start.
 * Content the fleet already inspected under the same parser and checks is
 * copied from the fleet instead of read again (run-import.ts).
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import {
  beatWorker,
  connectPostgresCatalog,
  InspectionJobQueue,
  isCatalogUnavailable,
  registerWorker,
  stopWorker,
  sweepOrphanedRunFiles,
  type InspectionJob,
  type JobQueueOptions,
  type PostgresConnection,
} from '@klvscope/adapters/postgres';
import type { AnyCheck } from '@klvscope/core';
import type { Catalog } from '@klvscope/core/store';
import { Store } from '@klvscope/core/store';
import { FileWorkflow } from '@klvscope/core/workflow';
import { APP_VERSION } from '../app-version.js';
import type { CliChecks } from '../cli/cli-checks.js';
import { fileSources } from '../inspection/file-sources.js';
import { mapPath, type PathMapping } from './path-map.js';
import { reuseFleetInspection } from './run-import.js';
import { publishInspection } from './run-publication.js';

export interface FleetWorkerOptions extends JobQueueOptions {
  catalogUrl: string;
  /** Jobs at once (default 1). */
  concurrency?: number;
  pathMappings?: readonly PathMapping[];
  /** Where the scratch data folders go (one per job, removed after it). */
  workDir: string;
  /** The checks and rules of a job that names none (a job from a service names its own). */
  checks: Pick<CliChecks, 'checks' | 'rules'>;
  /** How long to wait between claims when the queue is empty (default 500 ms). */
  pollMs?: number;
  log?: (line: string) => void;
}

/** What one job completes with (pg-boss keeps it as the job's output). */
export interface InspectionJobOutput {
  hash: string;
  runId: string;
  verdict: string;
  /** False when another worker's run of the same content was stored first. */
  stored: boolean;
  worker: string;
}

interface ActiveJob {
  path: string;
  startedMs: number;
  bytesDone: number;
}

export class FleetWorker {
  readonly id = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  #stopping = false;
  readonly #active = new Map<string, ActiveJob>();
  #bytesDone = 0;
  #jobsDone = 0;
  #loops: Promise<void>[] = [];
  #heartbeat: NodeJS.Timeout | undefined;
  /** Recent (time, bytes done) samples for the throughput the heartbeat reports. */
  #samples: { ms: number; bytes: number }[] = [];
  #beats = 0;

  private constructor(
    private readonly options: FleetWorkerOptions,
    private readonly catalog: Catalog & { readonly connection: PostgresConnection },
    private readonly queue: InspectionJobQueue,
  ) {}

  static async start(options: FleetWorkerOptions): Promise<FleetWorker> {
    const catalog = await connectPostgresCatalog(options.catalogUrl, { maxConnections: 4, applicationName: 'klvscope-worker' });
    let queue: InspectionJobQueue;
    try {
      queue = await InspectionJobQueue.start(catalog.connection, options.catalogUrl, options);
    } catch (error) {
      await catalog.close();
      throw error;
    }
    const worker = new FleetWorker(options, catalog, queue);
    await registerWorker(catalog.connection, { id: worker.id, host: hostname(), pid: process.pid, version: APP_VERSION, startedMs: Date.now() });
    worker.#heartbeat = setInterval(() => void worker.beat(), 1_000);
    const concurrency = options.concurrency ?? 1;
    worker.#loops = Array.from({ length: concurrency }, () => worker.claimLoop());
    worker.log(`worker ${worker.id} claiming jobs (${concurrency} at once) from ${catalog.connection.where}`);
    return worker;
  }

  /** Stops claiming, lets the jobs in progress end (they are published), and leaves. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.all(this.#loops);
    clearInterval(this.#heartbeat);
    await stopWorker(this.catalog.connection, this.id, Date.now()).catch(() => undefined);
    await this.queue.stop().catch(() => undefined);
    await this.catalog.close();
  }

  private async claimLoop(): Promise<void> {
    const pollMs = this.options.pollMs ?? 500;
    while (!this.#stopping) {
      const job = await this.queue.claim().catch(() => null);
      if (job === null) {
        await sleep(pollMs);
        continue;
      }
      await this.runJob(job);
    }
  }

  private async runJob(job: InspectionJob): Promise<void> {
    const localPath = mapPath(job.data.path, this.options.pathMappings ?? []);
    const active: ActiveJob = { path: job.data.path, startedMs: Date.now(), bytesDone: 0 };
    this.#active.set(job.id, active);
    // The lease is this worker's from the start, whatever the queue's default.
    await this.queue.renewLease([job.id]).catch(() => undefined);
    this.log(`job ${job.id}: ${localPath}`);
    const dataDir = join(this.options.workDir, `job-${job.id}`);
    let outcome: { output: InspectionJobOutput } | { error: string };
    try {
      outcome = { output: await this.inspect(job, localPath, dataDir, (bytes) => (active.bytesDone = bytes)) };
    } catch (error) {
      outcome = { error: error instanceof Error ? error.message : String(error) };
    } finally {
      this.#bytesDone += active.bytesDone;
      this.#active.delete(job.id);
      await rm(dataDir, { recursive: true, force: true });
    }
    // Counted and beaten before the queue hears of it, so that whoever sees the job completed sees this worker's count with it.
    if ('output' in outcome) this.#jobsDone++;
    await this.beat();
    // Told to the queue until it hears it: a database that is down now will be back. A worker stopping meanwhile
    // leaves the job to its lease: it runs again elsewhere, and its result, already published, is reused.
    try {
      await untilDone(() => ('output' in outcome ? this.queue.complete(job.id, outcome.output) : this.queue.fail(job.id, outcome.error)), () => this.#stopping);
    } catch (error) {
      this.log(`job ${job.id}: the queue was not told (${error instanceof Error ? error.message : String(error)}); its lease will run out`);
      return;
    }
    this.log(`job ${job.id}: ${'output' in outcome ? `${outcome.output.verdict}, run ${outcome.output.runId}` : `failed: ${outcome.error}`}`);
  }

  /** The checks the job names with its rules (an enqueuing service's), else this worker's own. */
  private checksOf(job: InspectionJob): { checks: readonly AnyCheck[]; rules: Readonly<Record<string, unknown>> } {
    const { checks: ids, rules } = job.data;
    if (ids === undefined) return this.options.checks;
    const loaded = new Map(this.options.checks.checks.map((check) => [check.id, check]));
    const missing = ids.filter((id) => !loaded.has(id));
    if (missing.length > 0) throw new Error(`this worker has no check ${missing.join(', ')}: give it the same check modules as the service (--config)`);
    return { checks: ids.map((id) => loaded.get(id) as AnyCheck), rules: rules ?? {} };
  }

  private async inspect(job: InspectionJob, localPath: string, dataDir: string, onBytes: (done: number) => void): Promise<InspectionJobOutput> {
    const path = job.data.path;
    const store = await Store.open({ dataDir });
    try {
      await reuseFleetInspection(store, this.catalog, path, localPath);
      const { checks, rules } = this.checksOf(job);
      const workflow = new FileWorkflow({ store, files: fileSources, checks, rules });
      let readBefore = 0;
      let phaseDone = 0;
      const result = await workflow.inspect(localPath, {
        onProgress: (done, total) => {
          if (done < phaseDone) readBefore += total;
          phaseDone = done;
          onBytes(readBefore + done);
        },
      });
      const published = await untilDone(
        () => publishInspection(store, this.catalog.connection, { hash: result.fileHash, path, localPath, runId: result.latestIngestRunId, parseKey: result.key.parseKey }, this.id),
        () => false,
      );
      return { hash: result.fileHash, runId: published.runId, verdict: result.report.verdict, stored: published.stored, worker: this.id };
    } finally {
      await store.close();
    }
  }

  private async beat(): Promise<void> {
    const now = Date.now();
    const done = this.#bytesDone + [...this.#active.values()].reduce((sum, job) => sum + job.bytesDone, 0);
    this.#samples = [...this.#samples.filter((sample) => now - sample.ms <= 5_000), { ms: now, bytes: done }];
    const [oldest] = this.#samples;
    const seconds = oldest === undefined ? 0 : (now - oldest.ms) / 1000;
    const current = [...this.#active.entries()][0];
    try {
      await this.queue.renewLease([...this.#active.keys()]);
      // Now and then, the files of runs a dead worker began storing and never listed (three leases old: no live worker is still storing them).
      if (this.#beats++ % SWEEP_EVERY_BEATS === 0) await sweepOrphanedRunFiles(this.catalog.connection, now - 3 * this.queue.leaseSeconds * 1000);
      await beatWorker(this.catalog.connection, this.id, {
        heartbeatMs: now,
        currentJob: current?.[0] ?? null,
        currentPath: current?.[1].path ?? null,
        bytesDone: done,
        bytesPerSecond: seconds > 0 && oldest ? (done - oldest.bytes) / seconds : 0,
        jobsDone: this.#jobsDone,
      });
    } catch (error) {
      // The database is down: the next beat tries again, and the lease holds until it runs out.
      if (!isCatalogUnavailable(error)) this.log(`heartbeat: ${String(error)}`);
    }
  }

  private log(line: string): void {
    this.options.log?.(line);
  }
}

/** Heartbeats between two sweeps of orphaned run files. */
const SWEEP_EVERY_BEATS = 60;

/** Runs `action` until it succeeds, waiting a second after each failure where the catalog cannot be reached; other errors are thrown. */
async function untilDone<T>(action: () => Promise<T>, givingUp: () => boolean): Promise<T> {
  for (;;) {
    try {
      return await action();
    } catch (error) {
      if (!isCatalogUnavailable(error) || givingUp()) throw error;
      await sleep(1_000);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
