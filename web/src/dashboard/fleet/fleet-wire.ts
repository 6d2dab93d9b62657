/** What GET /fleet, POST /automation/batch and GET /automation/batch/{id} answer (docs/fleet.md). */

export type QueueCounts = Record<'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed', number>;

export interface FleetWorker {
  id: string;
  host: string;
  pid: number;
  version: string;
  state: 'working' | 'idle' | 'offline' | 'stopped';
  startedMs: number;
  heartbeatMs: number;
  currentJob: string | null;
  currentPath: string | null;
  bytesDone: number;
  bytesPerSecond: number;
  jobsDone: number;
  stoppedMs: number | null;
}

export interface FailedJob {
  id: string;
  path: string;
  batch: string | null;
  error: string;
  retries: number;
  failedMs: number;
}

export interface FleetStatus {
  workers: FleetWorker[];
  queue: QueueCounts;
  failed: FailedJob[];
}

export interface QueuedBatch {
  batch: string;
  folder: string;
  glob: string;
  queued: number;
}

export interface BatchState {
  batch: string;
  jobs: number;
  done: boolean;
  counts: QueueCounts;
}
