/**
 * The fleet page (`#/fleet`): the workers with their state, throughput and
 * current recording, the queue, a folder queued as a batch with its
 * progress, and the failed jobs with their error and a retry button. Read
 * again every two seconds. A service without a fleet says how to start one.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api-client.js';
import type { DashboardRoute } from '../dashboard-route.js';
import { ErrorNotice } from '../error-notice.js';
import { BatchForm } from '../fleet/batch-form.js';
import type { FleetStatus, FleetWorker } from '../fleet/fleet-wire.js';
import '../fleet/fleet.css';
import { formatUtcTime } from '../files/utc-time.js';
import type { PageProps } from '../page-props.js';
import { useApiData } from '../use-api-data.js';

const REFRESH_MS = 2000;

export function FleetPage({ api }: PageProps<Extract<DashboardRoute, { page: 'fleet' }>>) {
  const fleet = useApiData(() => api.get<FleetStatus>('/fleet'), [api]);
  const [retryError, setRetryError] = useState<Error | null>(null);
  useEffect(() => {
    const timer = setInterval(() => fleet.reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [fleet.reload]);

  if (fleet.state === 'failed' && fleet.error instanceof ApiError && fleet.error.code === 'ERR_FLEET_DISABLED') {
    return (
      <div class="fleet-page">
        <h1>Fleet</h1>
        <p class="empty no-fleet">
          This service runs on its own. To inspect an archive on many machines, start it with <code>--catalog postgres://…</code> and run <code>klvscope worker</code> on each machine (docs/fleet.md).
        </p>
      </div>
    );
  }
  const retry = (id: string) => {
    setRetryError(null);
    api.post(`/fleet/jobs/${id}/retry`, {}).then(() => fleet.reload(), (e: unknown) => setRetryError(e as Error));
  };
  return (
    <div class="fleet-page">
      <h1>Fleet</h1>
      {fleet.state === 'loading' && <p class="checking">Reading the fleet…</p>}
      {fleet.state === 'failed' && <ErrorNotice error={fleet.error} what="read the fleet" />}
      {fleet.state === 'loaded' && (
        <>
          <section class="panel queue">
            <h2>Queue</h2>
            <p class="queue-counts">
              <span>
                <strong>{fleet.data.queue.created + fleet.data.queue.retry}</strong> queued
              </span>
              <span>
                <strong>{fleet.data.queue.active}</strong> active
              </span>
              <span>
                <strong>{fleet.data.queue.completed}</strong> done
              </span>
              <span class={fleet.data.queue.failed > 0 ? 'bad' : ''}>
                <strong>{fleet.data.queue.failed}</strong> failed
              </span>
            </p>
          </section>
          <WorkersPanel workers={fleet.data.workers} />
          <BatchForm api={api} />
          <section class="panel failed-jobs">
            <h2>Failed jobs</h2>
            {retryError !== null && <ErrorNotice error={retryError} what="retry the job" />}
            {fleet.data.failed.length === 0 ? (
              <p class="empty">No job has failed.</p>
            ) : (
              <table class="data">
                <thead>
                  <tr>
                    <th>Recording</th>
                    <th>Error</th>
                    <th class="number">Tries</th>
                    <th>Failed</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {fleet.data.failed.map((job) => (
                    <tr class="failed-job" data-job={job.id}>
                      <td class="path">{job.path}</td>
                      <td class="bad">{job.error}</td>
                      <td class="number">{job.retries + 1}</td>
                      <td>{formatUtcTime(job.failedMs)}</td>
                      <td>
                        <button type="button" class="retry" onClick={() => retry(job.id)}>
                          Retry
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
    </div>
  );
}

function WorkersPanel({ workers }: { workers: FleetWorker[] }) {
  const now = Date.now();
  return (
    <section class="panel workers">
      <h2>Workers</h2>
      {workers.length === 0 ? (
        <p class="empty">No worker seen in the last 24 hours: run klvscope worker --catalog URL on a machine that reads the recordings.</p>
      ) : (
        <table class="data">
          <thead>
            <tr>
              <th>State</th>
              <th>Host</th>
              <th class="number">PID</th>
              <th>Version</th>
              <th>Recording</th>
              <th class="number">MB/s</th>
              <th class="number">Jobs</th>
              <th class="number">Heartbeat</th>
            </tr>
          </thead>
          <tbody>
            {workers.map((worker) => (
              <tr class={`worker ${worker.state}`} data-worker={worker.id}>
                <td>
                  <span class={`state-light ${worker.state}`} aria-hidden="true" /> {worker.state}
                </td>
                <td>{worker.host}</td>
                <td class="number">{worker.pid}</td>
                <td>{worker.version}</td>
                <td class="path">{worker.state === 'working' ? (worker.currentPath ?? '') : ''}</td>
                <td class="number">{worker.state === 'working' ? (worker.bytesPerSecond / 1e6).toFixed(0) : ''}</td>
                <td class="number">{worker.jobsDone.toLocaleString('en')}</td>
                <td class="number">{Math.max(0, Math.round((now - worker.heartbeatMs) / 1000))} s ago</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
