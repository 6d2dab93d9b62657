/**
 * What `GET /api/v1/fleet` and `klvscope fleet` show: the workers (a worker
 * whose heartbeat is older than OFFLINE_AFTER_MS is offline) and the queue.
 */
import { listWorkers, type FleetWorkerRow, type InspectionJobQueue, type PostgresConnection, type QueueCounts, type FailedJob } from '@klvscope/adapters/postgres';

/** Three missed heartbeats (one a second) and a worker counts as gone. */
export const OFFLINE_AFTER_MS = 5_000;
/** Workers seen within this time are listed (older rows are history). */
const LISTED_FOR_MS = 24 * 3600 * 1000;

export interface FleetWorkerStatus extends FleetWorkerRow {
  state: 'working' | 'idle' | 'offline' | 'stopped';
}

export interface FleetStatus {
  workers: FleetWorkerStatus[];
  queue: QueueCounts;
  failed: FailedJob[];
}

export async function fleetStatus(connection: PostgresConnection, queue: InspectionJobQueue, nowMs = Date.now()): Promise<FleetStatus> {
  const [workers, counts, failed] = await Promise.all([listWorkers(connection, nowMs - LISTED_FOR_MS), queue.counts(), queue.failed(50)]);
  return { workers: workers.map((worker) => ({ ...worker, state: workerState(worker, nowMs) })), queue: counts, failed };
}

function workerState(worker: FleetWorkerRow, nowMs: number): FleetWorkerStatus['state'] {
  if (worker.stoppedMs !== null) return 'stopped';
  if (nowMs - worker.heartbeatMs > OFFLINE_AFTER_MS) return 'offline';
  return worker.currentJob === null ? 'idle' : 'working';
}
