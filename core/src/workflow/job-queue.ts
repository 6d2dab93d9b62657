/**
 * Analysis, ingest and process jobs: a queue run with bounded concurrency.
 * A job goes queued -> running -> completed | failed | cancelled (a queued
 * job may be cancelled before it runs). Progress is bytes done of a total.
 * Finished jobs are kept (up to a bound) so their status can still be read.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowError } from './workflow-error.js';

export type JobKind = 'analysis' | 'ingest' | 'process';
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface JobProgress {
  bytesDone: number;
  bytesTotal: number | null;
}

export interface JobError {
  code: string;
  message: string;
}

/** A job's state as callers see it (a copy: later changes do not show through). */
export interface JobView<R = unknown> {
  id: string;
  kind: JobKind;
  /** What it works on, e.g. the file path. */
  subject: string;
  status: JobStatus;
  progress: JobProgress;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error: JobError | null;
  result: R | null;
}

export interface JobContext {
  readonly signal: AbortSignal;
  /** Reports progress; the total may be given once known. */
  progress(bytesDone: number, bytesTotal?: number | null): void;
}

export type JobWork<R> = (context: JobContext) => Promise<R>;

export interface JobQueueOptions {
  /** Jobs running at once (default 1: jobs read whole files, and two would only share the disk). */
  concurrency?: number;
  /** Finished jobs remembered (default 1000); the oldest are forgotten first. */
  keepFinished?: number;
  clock?: () => Date;
}

interface Job {
  view: JobView;
  work: JobWork<unknown>;
  controller: AbortController;
  done: Promise<void>;
  settle: () => void;
}

const FINISHED: ReadonlySet<JobStatus> = new Set(['completed', 'failed', 'cancelled']);

export class JobQueue {
  private readonly jobs = new Map<string, Job>();
  private readonly waiting: Job[] = [];
  private readonly finishedOrder: string[] = [];
  private running = 0;
  private closed = false;
  private readonly concurrency: number;
  private readonly keepFinished: number;
  private readonly clock: () => Date;

  constructor(options: JobQueueOptions = {}) {
    this.concurrency = Math.max(1, options.concurrency ?? 1);
    this.keepFinished = Math.max(1, options.keepFinished ?? 1000);
    this.clock = options.clock ?? (() => new Date());
  }

  /** Queues a job and returns its view; it starts when a slot is free. */
  submit<R>(kind: JobKind, subject: string, work: JobWork<R>): JobView<R> {
    if (this.closed) throw new WorkflowError('ERR_JOB_QUEUE_CLOSED', 'the job queue is shut down: no new jobs');
    let settle = (): void => undefined;
    const done = new Promise<void>((resolve) => (settle = resolve));
    const job: Job = {
      view: {
        id: randomUUID(),
        kind,
        subject,
        status: 'queued',
        progress: { bytesDone: 0, bytesTotal: null },
        createdAt: this.now(),
        startedAt: null,
        finishedAt: null,
        error: null,
        result: null,
      },
      work,
      controller: new AbortController(),
      done,
      settle,
    };
    this.jobs.set(job.view.id, job);
    this.waiting.push(job);
    this.pump();
    return this.get(job.view.id) as JobView<R>;
  }

  /** The job's current state; null when unknown (or forgotten). */
  get(id: string): JobView | null {
    const job = this.jobs.get(id);
    return job ? structuredClone(job.view) : null;
  }

  /** Every job known, oldest first. */
  list(): JobView[] {
    return [...this.jobs.values()].map((job) => structuredClone(job.view));
  }

  /**
   * Cancels a queued or running job: a queued one never runs; a running one
   * gets its signal aborted and is marked cancelled when its work returns.
   * Cancelling a finished job is a conflict (ERR_JOB_FINISHED).
   */
  cancel(id: string): JobView {
    const job = this.jobs.get(id);
    if (!job) throw new WorkflowError('ERR_JOB_NOT_FOUND', `no job '${id}'`, { id });
    if (FINISHED.has(job.view.status)) {
      throw new WorkflowError('ERR_JOB_FINISHED', `job '${id}' is already ${job.view.status}`, { id, status: job.view.status });
    }
    job.controller.abort(new WorkflowError('ERR_JOB_CANCELLED', `job '${id}' was cancelled`, { id }));
    if (job.view.status === 'queued') {
      this.waiting.splice(this.waiting.indexOf(job), 1);
      this.finish(job, 'cancelled', null, null);
    }
    return structuredClone(job.view);
  }

  /** Resolves when the job has finished (at once if it has), with its final state. */
  async wait(id: string): Promise<JobView> {
    const job = this.jobs.get(id);
    if (!job) throw new WorkflowError('ERR_JOB_NOT_FOUND', `no job '${id}'`, { id });
    await job.done;
    return structuredClone(job.view);
  }

  /** Refuses new jobs, cancels every unfinished one and waits for the running ones to stop. */
  async shutdown(): Promise<void> {
    this.closed = true;
    const unfinished = [...this.jobs.values()].filter((job) => !FINISHED.has(job.view.status));
    for (const job of unfinished) this.cancel(job.view.id);
    await Promise.all(unfinished.map((job) => job.done));
  }

  private pump(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift() as Job;
      this.running++;
      void this.run(job).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async run(job: Job): Promise<void> {
    job.view.status = 'running';
    job.view.startedAt = this.now();
    const signal = job.controller.signal;
    const context: JobContext = {
      signal,
      progress: (bytesDone, bytesTotal) => {
        job.view.progress.bytesDone = bytesDone;
        if (bytesTotal !== undefined) job.view.progress.bytesTotal = bytesTotal;
      },
    };
    try {
      const result = await job.work(context);
      if (signal.aborted) this.finish(job, 'cancelled', null, null);
      else this.finish(job, 'completed', null, result);
    } catch (cause) {
      if (signal.aborted) this.finish(job, 'cancelled', null, null);
      else this.finish(job, 'failed', jobErrorOf(cause), null);
    }
  }

  private finish(job: Job, status: JobStatus, error: JobError | null, result: unknown): void {
    job.view.status = status;
    job.view.finishedAt = this.now();
    job.view.error = error;
    job.view.result = result ?? null;
    job.settle();
    this.finishedOrder.push(job.view.id);
    while (this.finishedOrder.length > this.keepFinished) this.jobs.delete(this.finishedOrder.shift() as string);
  }

  private now(): string {
    return this.clock().toISOString();
  }
}

function jobErrorOf(cause: unknown): JobError {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return { code: typeof code === 'string' ? code : 'ERR_JOB_FAILED', message: cause.message };
  }
  return { code: 'ERR_JOB_FAILED', message: String(cause) };
}
