/**
 * The work of a synchronous request that reads a recording (analysis,
 * inspection) runs as a job of the queue and the request waits for it: the
 * queue's concurrency (`jobs.concurrency`) then bounds every file read of
 * the service, requests and jobs alike, and shutting the queue down ends
 * the waiting requests too. The job's own error (with its details) is what
 * the request answers, not the job view's summary of it.
 */
import type { JobContext, JobKind, JobQueue } from '@klvscope/core/workflow';
import { InspectionError } from './inspection-error.js';

export async function runQueued<R>(jobs: JobQueue, kind: JobKind, subject: string, work: (context: JobContext) => Promise<R>): Promise<R> {
  // The result and the error stay here: the queue remembers finished jobs, and need not hold what only this request reads.
  const outcome: { result?: R; error?: Error } = {};
  const submitted = jobs.submit(kind, subject, async (context) => {
    try {
      outcome.result = await work(context);
    } catch (error) {
      outcome.error = error instanceof Error ? error : new Error(String(error));
      throw error;
    }
  });
  const done = await jobs.wait(submitted.id);
  if (done.status === 'completed') return outcome.result as R;
  // Only the service's shutdown cancels these jobs: their ids are never handed out.
  if (done.status === 'cancelled') throw new InspectionError('ERR_SHUTTING_DOWN', 'the inspection service is shutting down: the work was stopped');
  throw outcome.error ?? new InspectionError('ERR_INTERNAL', `job ${done.id} failed: ${done.error?.message ?? 'unknown error'}`);
}
