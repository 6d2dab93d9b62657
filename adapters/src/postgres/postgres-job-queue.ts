/**
 * Inspection jobs in PostgreSQL through pg-boss 10 (DESIGN.md "The fleet":
 * an existing queue, never a table poller of our own). pg-boss claims a job
 * with `FOR UPDATE SKIP LOCKED`, so one worker gets it; an active job whose
 * `started_on + expire_in` has passed is failed by pg-boss's maintenance
 * and retried. That expiry is the lease: pg-boss 10 has no heartbeat of its
 * own (the one it gained later needs Node 22), so `renewLease` moves the
 * job's `started_on` forward while its worker works, in the column
 * pg-boss's expiry reads. A worker that dies stops renewing; once the lease
 * runs out the job runs again, from the start, on whichever worker fetches it.
 */
import PgBoss from 'pg-boss';
import type { PostgresConnection } from './postgres-connection.js';
import { catalogError } from './postgres-unavailable.js';

export const INSPECTION_QUEUE = 'klvscope-inspect';
/** Deadlock, unique violation, duplicate table: what two nodes making the queue at once meet. */
const RACE_STATES = new Set(['40P01', '23505', '42P07']);
/** pg-boss's own schema in the catalog's database. */
const BOSS_SCHEMA = 'pgboss';

export interface InspectionJobData {
  /** The recording's path as the enqueuer names it (a worker maps it: --path-map). */
  path: string;
  /** The batch it belongs to (POST /automation/batch, `klvscope enqueue`), if any. */
  batch?: string;
  /** The ids of the checks to run (the enqueuing service's enabled checks); default: the worker's own. */
  checks?: string[];
  /** Their rule slices by check id; default: the worker's own rules. */
  rules?: Readonly<Record<string, unknown>>;
}

export interface InspectionJob {
  id: string;
  data: InspectionJobData;
}

export interface JobQueueOptions {
  /** How long a claim holds without renewal (default 30 s). */
  leaseSeconds?: number;
  /** How often pg-boss's maintenance fails expired jobs (default 5 s; at least 1). */
  maintenanceSeconds?: number;
  /** Times a failed or expired job is tried again (default 3). */
  retryLimit?: number;
  /** Runs pg-boss's maintenance and migrations from this node (default true; a node with many peers may leave it to one). */
  supervise?: boolean;
}

export type QueueState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
export type QueueCounts = Record<QueueState, number>;

export interface FailedJob {
  id: string;
  path: string;
  batch: string | null;
  error: string;
  retries: number;
  failedMs: number;
}

export class InspectionJobQueue {
  private constructor(
    private readonly boss: PgBoss,
    private readonly connection: PostgresConnection,
    readonly leaseSeconds: number,
  ) {}

  /** Starts pg-boss on the catalog's database (creating or migrating its schema) and its inspection queue. */
  static async start(connection: PostgresConnection, url: string, options: JobQueueOptions = {}): Promise<InspectionJobQueue> {
    const leaseSeconds = options.leaseSeconds ?? 30;
    const boss = new PgBoss({
      connectionString: url,
      schema: BOSS_SCHEMA,
      max: 2,
      supervise: options.supervise ?? true,
      maintenanceIntervalSeconds: options.maintenanceSeconds ?? 5,
      monitorStateIntervalSeconds: 60,
      application_name: 'klvscope-queue',
    });
    // pg-boss reports a lost connection as an event; unheard, it would end the process. Its next call reconnects.
    boss.on('error', () => undefined);
    try {
      await boss.start();
      // Nodes that start together race to make the queue: the loser's deadlock or duplicate is tried again.
      for (let attempt = 1; (await boss.getQueue(INSPECTION_QUEUE)) === null; attempt++) {
        try {
          await boss.createQueue(INSPECTION_QUEUE, { name: INSPECTION_QUEUE, policy: 'standard', retryLimit: options.retryLimit ?? 3, retryDelay: 0, expireInSeconds: leaseSeconds, retentionDays: 14 });
        } catch (error) {
          if (attempt >= 5 || !RACE_STATES.has((error as { code?: string }).code ?? '')) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
        }
      }
    } catch (error) {
      await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
      throw catalogError(error, connection.where);
    }
    return new InspectionJobQueue(boss, connection, leaseSeconds);
  }

  /** Queues one inspection per path; returns the job ids, in order. */
  async enqueue(jobs: readonly InspectionJobData[]): Promise<string[]> {
    try {
      const ids: string[] = [];
      for (const data of jobs) {
        const id = await this.boss.send(INSPECTION_QUEUE, { ...data });
        if (id === null) throw new Error(`pg-boss did not queue ${data.path}`);
        ids.push(id);
      }
      return ids;
    } catch (error) {
      throw catalogError(error, this.connection.where);
    }
  }

  /** Claims the next job, or null when none waits (or the database cannot be reached: the caller polls again). */
  async claim(): Promise<InspectionJob | null> {
    const [job] = await this.boss.fetch<InspectionJobData>(INSPECTION_QUEUE, { batchSize: 1 });
    return job ? { id: job.id, data: job.data } : null;
  }

  /**
   * Renews the claims on these jobs for this node's lease (the heartbeat; also
   * right after a claim, so the lease is the claiming worker's, whoever queued
   * the job); those no longer active (expired, done) are left as they are.
   */
  async renewLease(jobIds: readonly string[]): Promise<void> {
    if (jobIds.length === 0) return;
    await this.connection.query(
      `UPDATE ${BOSS_SCHEMA}.job SET started_on = now(), expire_in = make_interval(secs => $3) WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'active'`,
      [INSPECTION_QUEUE, jobIds, this.leaseSeconds],
    );
  }

  async complete(jobId: string, output: object): Promise<void> {
    try {
      await this.boss.complete(INSPECTION_QUEUE, jobId, output);
    } catch (error) {
      throw catalogError(error, this.connection.where);
    }
  }

  async fail(jobId: string, message: string): Promise<void> {
    try {
      await this.boss.fail(INSPECTION_QUEUE, jobId, { message });
    } catch (error) {
      throw catalogError(error, this.connection.where);
    }
  }

  /** Queues a failed job again, from the start; false when there was no such failed job. */
  async retry(jobId: string): Promise<boolean> {
    const before = await this.job(jobId);
    if (before?.state !== 'failed') return false;
    await this.boss.retry(INSPECTION_QUEUE, jobId);
    return true;
  }

  /** Jobs per state, of one batch or of all. */
  async counts(batch?: string): Promise<QueueCounts> {
    const counts: QueueCounts = { created: 0, retry: 0, active: 0, completed: 0, cancelled: 0, failed: 0 };
    const rows = await this.connection.query<{ state: QueueState; n: number }>(
      `SELECT state, count(*)::int AS n FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND ($2::text IS NULL OR data->>'batch' = $2) GROUP BY state`,
      [INSPECTION_QUEUE, batch ?? null],
    );
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  /** The failed jobs, newest first, with pg-boss's record of their error. */
  async failed(limit = 100): Promise<FailedJob[]> {
    const rows = await this.connection.query<{ id: string; data: InspectionJobData; output: { message?: string; value?: { message?: string } } | null; retry_count: number; completed_on: Date | null }>(
      `SELECT id, data, output, retry_count, completed_on FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND state = 'failed' ORDER BY completed_on DESC NULLS LAST LIMIT $2`,
      [INSPECTION_QUEUE, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      path: row.data.path,
      batch: row.data.batch ?? null,
      error: row.output?.message ?? row.output?.value?.message ?? 'failed',
      retries: row.retry_count,
      failedMs: row.completed_on?.getTime() ?? 0,
    }));
  }

  /** A job's state and output (what its worker completed it with), or null when pg-boss has no such job. */
  async job(jobId: string): Promise<{ state: QueueState; output: unknown } | null> {
    const job = await this.boss.getJobById(INSPECTION_QUEUE, jobId);
    return job ? { state: job.state, output: job.output } : null;
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, close: true });
  }
}
