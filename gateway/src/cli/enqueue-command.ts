/**
 * `klvscope enqueue PATH… [--catalog URL]`: queues an inspection of each
 * recording (a folder: every recording under it, `--glob`) for the fleet's
 * workers, then follows the batch with a progress bar until every job has
 * completed or failed (`--no-wait` returns at once). Exit 1 when a job failed.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { connectPostgresCatalog, InspectionJobQueue, type QueueCounts } from '@klvscope/adapters/postgres';
import { DEFAULT_RECORDING_GLOB, recordingsInFolder } from '../fleet/recordings-in-folder.js';
import { requiredCatalogUrl } from './catalog-url.js';
import { startCountProgress } from './progress.js';
import { UsageError } from './usage-error.js';

export interface EnqueueOptions {
  catalog?: string;
  glob?: string;
  wait: boolean;
}

export async function runEnqueue(paths: string[], options: EnqueueOptions, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const url = requiredCatalogUrl(options.catalog, env);
  const recordings: string[] = [];
  for (const path of paths.map((p) => resolve(p))) {
    const info = await stat(path).catch(() => null);
    if (info === null) throw new UsageError(`no such file or folder: ${path}`);
    recordings.push(...(info.isDirectory() ? await recordingsInFolder(path, options.glob ?? DEFAULT_RECORDING_GLOB) : [path]));
  }
  if (recordings.length === 0) throw new UsageError(`no recordings under ${paths.join(', ')} match ${options.glob ?? DEFAULT_RECORDING_GLOB}`);
  const catalog = await connectPostgresCatalog(url, { maxConnections: 2, applicationName: 'klvscope-enqueue' });
  const queue = await InspectionJobQueue.start(catalog.connection, url, { supervise: false }).catch(async (error: unknown) => {
    await catalog.close();
    throw error;
  });
  try {
    const batch = randomUUID();
    await queue.enqueue(recordings.map((path) => ({ path, batch })));
    process.stdout.write(`batch ${batch}: ${recordings.length} recording${recordings.length === 1 ? '' : 's'} queued\n`);
    if (!options.wait) return 0;
    const progress = startCountProgress('Inspecting', recordings.length, 'recordings');
    let counts: QueueCounts;
    for (;;) {
      counts = await queue.counts(batch);
      progress.update(counts.completed + counts.failed + counts.cancelled);
      if (counts.completed + counts.failed + counts.cancelled >= recordings.length) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    progress.stop();
    process.stdout.write(`batch ${batch}: ${counts.completed} completed, ${counts.failed} failed\n`);
    return counts.failed > 0 ? 1 : 0;
  } finally {
    await queue.stop().catch(() => undefined);
    await catalog.close();
  }
}
