/**
 * Inspecting a file as the dashboard does it: a process job
 * (`POST /process/file/jobs`, which runs analyze, ingest and process,
 * reusing what is cached), its status polled a few times a second for the
 * progress bar, until it has finished. A process job, not a file session:
 * it neither replaces the active session (a live one may be running) nor
 * waits in one long request, and its status carries bytes done of total.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, isAuthError, type ApiClient } from '../api-client.js';

/** The job as `GET /process/file/jobs/{id}` answers it. */
export interface JobView {
  id: string;
  /** The file, resolved. */
  subject: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  /** Bytes of every read the job makes (hashing, analyze, ingest); bytesTotal null until the file is identified. */
  progress: { bytesDone: number; bytesTotal: number | null };
  error: { code: string; message: string } | null;
}

export type Inspection =
  | { state: 'idle' }
  | { state: 'starting'; filePath: string }
  | { state: 'running'; filePath: string; job: JobView; percent: number | null }
  | { state: 'completed'; filePath: string; job: JobView; percent: number }
  | { state: 'failed'; filePath: string; error: Error; job?: JobView; percent?: number | null };

/** How often the job status is asked for while it runs. */
export const JOB_POLL_MS = 200;

/**
 * The bar's value: bytes done of the total, never below what it showed
 * before. The service's total is the file's size while it hashes an unknown
 * file, and grows to every read the job plans once the file is identified
 * (gateway/src/inspection/file-stages.ts), so the raw fraction drops there;
 * a bar going backwards would say the work went back.
 */
export function jobPercent(job: JobView, shownBefore: number | null = null): number | null {
  const { bytesDone, bytesTotal } = job.progress;
  if (bytesTotal === null) return shownBefore;
  const percent = bytesTotal === 0 ? 100 : Math.min(100, (100 * bytesDone) / bytesTotal);
  return Math.max(percent, shownBefore ?? 0);
}

/** The inspection's state and `start(filePath)`; `onCompleted` is called once the job has completed. */
export function useInspectionJob(api: ApiClient, onCompleted: (filePath: string) => void): { inspection: Inspection; start: (filePath: string) => void } {
  const [inspection, setInspection] = useState<Inspection>({ state: 'idle' });
  // Each start supersedes the one before: its polling stops.
  const generation = useRef(0);
  const completed = useRef(onCompleted);
  completed.current = onCompleted;

  // Leaving the page stops the polling (the job itself runs on, and its result is cached).
  useEffect(
    () => () => {
      generation.current++;
    },
    [],
  );

  const start = useCallback(
    (filePath: string) => {
      const mine = ++generation.current;
      const current = () => mine === generation.current;
      let last: { job: JobView; percent: number | null } | null = null;
      setInspection({ state: 'starting', filePath });
      const following = (job: JobView, percent: number | null) => {
        last = { job, percent };
        if (current()) setInspection({ state: 'running', filePath, job, percent });
      };
      runInspectionJob(api, filePath, following, () => !current()).then(
        (job) => {
          if (!current()) return;
          setInspection({ state: 'completed', filePath, job, percent: 100 });
          completed.current(filePath);
        },
        (error: unknown) => {
          if (!current()) return;
          const reason = error instanceof Error ? error : new Error(String(error));
          // Rethrown unhandled on purpose, as useApiData does: the dashboard's gate listens for a refused key.
          if (isAuthError(reason)) void Promise.reject(reason);
          setInspection({ state: 'failed', filePath, error: reason, job: error instanceof JobFailure ? error.job : last?.job, percent: last?.percent ?? null });
        },
      );
    },
    [api],
  );
  return { inspection, start };
}

/** A job that ended failed or cancelled: its error, and the job as last read. */
export class JobFailure extends ApiError {
  constructor(readonly job: JobView) {
    const error = job.error ?? { code: 'ERR_JOB_CANCELLED', message: 'the job was cancelled' };
    super(422, error.code, error.message);
  }
}

/**
 * One process job to its end, as a promise (the files page's Inspect and the
 * folder's verdict list, one after the other): `onProgress` hears the job and
 * the bar's value at each reading while it runs; `stopped()` true stops the
 * polling (the job runs on, its result is cached). Resolves with the
 * completed job; rejects with a JobFailure, or the request's error.
 */
export async function runInspectionJob(api: ApiClient, filePath: string, onProgress: (job: JobView, percent: number | null) => void, stopped: () => boolean): Promise<JobView> {
  let job = await api.post<JobView>('/process/file/jobs', { filePath });
  let shown: number | null = null;
  while (job.status === 'queued' || job.status === 'running') {
    shown = jobPercent(job, shown);
    onProgress(job, shown);
    await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
    if (stopped()) throw new ApiError(0, 'ERR_JOB_CANCELLED', 'the page stopped following the job');
    job = await api.get<JobView>(`/process/file/jobs/${encodeURIComponent(job.id)}`);
  }
  if (job.status !== 'completed') throw new JobFailure(job);
  onProgress(job, 100);
  return job;
}
