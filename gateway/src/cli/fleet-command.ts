/** `klvscope fleet [--catalog URL] [--json]`: the fleet's workers and queue (what GET /api/v1/fleet answers). */
import { connectPostgresCatalog, InspectionJobQueue } from '@klvscope/adapters/postgres';
import { fleetStatus, type FleetStatus } from '../fleet/fleet-status.js';
import { requiredCatalogUrl } from './catalog-url.js';

export async function runFleet(options: { catalog?: string; json?: boolean }, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const url = requiredCatalogUrl(options.catalog, env);
  const catalog = await connectPostgresCatalog(url, { maxConnections: 2, applicationName: 'klvscope-fleet' });
  try {
    const queue = await InspectionJobQueue.start(catalog.connection, url, { supervise: false });
    try {
      const status = await fleetStatus(catalog.connection, queue);
      process.stdout.write(options.json ? `${JSON.stringify(status)}\n` : fleetText(status));
    } finally {
      await queue.stop();
    }
  } finally {
    await catalog.close();
  }
}

export function fleetText(status: FleetStatus): string {
  const { queue } = status;
  const lines = [`queue: ${queue.created + queue.retry} queued, ${queue.active} active, ${queue.completed} done, ${queue.failed} failed`, ''];
  if (status.workers.length === 0) lines.push('no workers seen in the last 24 h');
  for (const w of status.workers) {
    const rate = w.state === 'working' ? `  ${(w.bytesPerSecond / 1e6).toFixed(0)} MB/s  ${w.currentPath ?? ''}` : '';
    lines.push(`${w.state.padEnd(8)} ${w.host} pid ${w.pid}  v${w.version}  ${w.jobsDone} jobs  heartbeat ${Math.round((Date.now() - w.heartbeatMs) / 1000)} s ago${rate}`);
  }
  for (const job of status.failed.slice(0, 10)) lines.push(`failed   ${job.path}: ${job.error}`);
  return `${lines.join('\n')}\n`;
}
