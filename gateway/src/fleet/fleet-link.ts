/**
 * The inspection service's link to its fleet (`serve --catalog URL`): its
 * data folder becomes a cache of the fleet's PostgreSQL. An inspection is a
 * job for the workers (the service runs none itself unless started with
 * `--worker`), carrying the service's enabled checks and rules so that the
 * worker's result is the one the service would make; its result is copied
 * into the data folder (run-import.ts), where every route reads it as today.
 * What the data folder lacks (a file a batch inspected) is copied on demand.
 */
import { stat } from 'node:fs/promises';
import {
  connectPostgresCatalog,
  InspectionJobQueue,
  type InspectionJobData,
  workersByHash,
  type PostgresConnection,
} from '@klvscope/adapters/postgres';
import type { Logger } from '@klvscope/core';
import { getFile, getIngestRun, type ArchiveEntry, type Catalog, type Store } from '@klvscope/core/store';
import { fleetStatus, type FleetStatus } from './fleet-status.js';
import { importFromFleet } from './run-import.js';
import { FleetError } from './fleet-error.js';
import { deleteFleetEntries } from './fleet-archive.js';
import { ProbeHub } from '../probe/probe-hub.js';

/** What a job carries so the worker runs the service's checks under its rules. */
export interface CheckSelection {
  checks: string[];
  rules: Readonly<Record<string, unknown>>;
}

export class FleetLink {
  private constructor(
    readonly catalog: Catalog & { readonly connection: PostgresConnection },
    readonly queue: InspectionJobQueue,
    readonly url: string,
    /** The fleet's live probes and their sessions: this service is their hub (docs/fleet.md "Probes"). */
    readonly probes: ProbeHub,
  ) {}

  static async connect(url: string, log: Logger): Promise<FleetLink> {
    const catalog = await connectPostgresCatalog(url, { maxConnections: 6, applicationName: 'klvscope-serve' });
    let queue: InspectionJobQueue | null = null;
    try {
      queue = await InspectionJobQueue.start(catalog.connection, url);
      return new FleetLink(catalog, queue, url, await ProbeHub.start(catalog.connection, url, log));
    } catch (error) {
      await queue?.stop().catch(() => undefined);
      await catalog.close();
      throw error;
    }
  }

  get connection(): PostgresConnection {
    return this.catalog.connection;
  }

  /**
   * Has the file at `path` inspected by the fleet, unless it already holds
   * it under `keys`, waits for the job and copies the result into `store`.
   */
  async inspect(store: Store, path: string, selection: CheckSelection, keys: { parseKey: string; checkKey: string }, signal?: AbortSignal): Promise<void> {
    const known = await this.knownContent(path);
    if (known !== undefined && (await this.holds(known, keys))) {
      await importFromFleet(store, this.connection, known, path);
      return;
    }
    const data: InspectionJobData = { path, checks: selection.checks, rules: selection.rules };
    const [jobId] = await this.queue.enqueue([data]);
    const output = await this.waitFor(jobId, signal);
    await importFromFleet(store, this.connection, output.hash, path);
  }

  /** Queues one job per path as one batch; returns the batch's id. */
  async batch(paths: readonly string[], batch: string, selection: CheckSelection): Promise<void> {
    await this.queue.enqueue(paths.map((path) => ({ path, batch, checks: selection.checks, rules: selection.rules })));
  }

  /** Copies a file the fleet knows into the store when the store lacks it; false when the fleet knows none. */
  async ensureFile(store: Store, hash: string): Promise<boolean> {
    if (getFile(store.catalog.db, hash) !== undefined && !(await this.hasNewerRuns(store, hash))) return true;
    return importFromFleet(store, this.connection, hash);
  }

  /** Likewise for the file of an ingest run. */
  async ensureRun(store: Store, runId: string): Promise<boolean> {
    if (getIngestRun(store.catalog.db, runId) !== undefined) return true;
    const run = await this.catalog.getIngestRun(runId);
    return run !== undefined && run.status === 'completed' && (await importFromFleet(store, this.connection, run.hash));
  }

  /** The fleet's archive, each entry with the worker of its newest run. */
  async archiveEntries(): Promise<(ArchiveEntry & { worker: string | null })[]> {
    const [entries, workers] = await Promise.all([this.catalog.listArchiveEntries(), workersByHash(this.connection)]);
    return entries.map((entry) => ({ ...entry, worker: workers.get(entry.hash) ?? null }));
  }

  /** Deletes the entries of these hashes from the fleet: payloads, ingest runs and their files; answers the hashes that had any. */
  deleteEntries(hashes: readonly string[]): Promise<string[]> {
    return deleteFleetEntries(this.connection, hashes);
  }

  status(): Promise<FleetStatus> {
    return fleetStatus(this.connection, this.queue);
  }

  async close(): Promise<void> {
    await this.probes.close();
    await this.queue.stop().catch(() => undefined);
    await this.catalog.close();
  }

  /** The content the fleet recorded at `path`, if the file still has that size and modification time. */
  private async knownContent(path: string): Promise<string | undefined> {
    const record = await this.catalog.getFileRecord(path);
    if (record === undefined) return undefined;
    const { size, mtimeMs } = await stat(path);
    return record.size === size && record.mtimeMs === mtimeMs ? record.hash : undefined;
  }

  private async holds(hash: string, keys: { parseKey: string; checkKey: string }): Promise<boolean> {
    const [ingest, processed] = await Promise.all([this.catalog.getStagePayload(hash, 'ingest', keys.parseKey), this.catalog.getStagePayload(hash, 'process', keys.checkKey)]);
    return ingest !== undefined && processed !== undefined;
  }

  /** Whether the fleet lists a completed run of `hash` the store lacks (another worker's, since the store copied it). */
  private async hasNewerRuns(store: Store, hash: string): Promise<boolean> {
    const runs = await this.catalog.listIngestRuns(hash);
    return runs.some((run) => run.status === 'completed' && getIngestRun(store.catalog.db, run.id) === undefined);
  }

  private async waitFor(jobId: string, signal?: AbortSignal): Promise<{ hash: string }> {
    for (;;) {
      if (signal?.aborted) throw new FleetError('ERR_FLEET_JOB_ABANDONED', `the inspection was cancelled while job ${jobId} waited for a worker; the job goes on`, { jobId });
      const job = await this.queue.job(jobId);
      if (job?.state === 'completed') return job.output as { hash: string };
      if (job?.state === 'failed' || job?.state === 'cancelled') {
        const output = job.output as { message?: string } | null;
        throw new FleetError('ERR_FLEET_JOB_FAILED', `the fleet's inspection failed: ${output?.message ?? job.state}`, { jobId });
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
