/**
 * `klvscope inspect FILE --store [DIR]`: the file workflow on a data folder
 * (DIR, else KLVSCOPE_DATA_DIR, else ./data). Stages cached under the
 * current compatibility key are reused (an unchanged file is not even
 * re-hashed); the command says which stages it reused and which it ran.
 */
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { type Point } from '@klvscope/core';
import { Store, defaultDataDir } from '@klvscope/core/store';
import { FileWorkflow, type InspectionResult, type ProgressPhase } from '@klvscope/core/workflow';
import { fileSourcesOnThreads } from '../inspection/file-sources.js';
import type { CliChecks } from './cli-checks.js';
import { startProgress, type Progress } from './progress.js';
import { UsageError } from './usage-error.js';

export interface StoredInspection {
  dataDir: string;
  result: InspectionResult;
  /** With `onlyCheck`: every point that check stored. */
  points: Point[] | null;
}

/** A first inspection reads the file once (new content is hashed beside that read, other content first): the analysis and the checks run in the ingest's pass; the checks alone (after a rule change) over the stored run. */
const PHASE_LABELS: Readonly<Record<ProgressPhase, string>> = { hash: 'Hashing', analyze: 'Analyzing', ingest: 'Analyzing, ingesting and checking', process: 'Checking the stored run' };

export async function inspectWithStore(
  path: string,
  dataDir: string | true,
  loadChecks: Promise<CliChecks>,
  onlyCheck?: string,
  catalogUrl?: string,
  threads = 1,
): Promise<StoredInspection> {
  // The store opens (compiling sql.js's WebAssembly in the background) while the checks and rules load.
  const opening = Store.open({ dataDir: dataDir === true ? defaultDataDir() : dataDir });
  const [opened, checks] = await Promise.allSettled([opening, loadChecks]);
  if (opened.status === 'rejected') throw opened.reason;
  const store = opened.value;
  try {
    if (checks.status === 'rejected') throw checks.reason;
    const loaded = checks.value;
    const workflow = new FileWorkflow({
      store,
      files: fileSourcesOnThreads({ threads }),
      checks: loaded.checks,
      rules: loaded.rules,
    });
    let progress: Progress | null = null;
    let phase: ProgressPhase | null = null;
    let result: InspectionResult;
    const fleet = catalogUrl === undefined ? undefined : await fleetNode(catalogUrl);
    try {
      if (fleet) await fleet.reuse(store, resolve(path));
      result = await workflow.inspect(path, {
        onProgress: (done, total, current) => {
          if (current !== phase) {
            progress?.stop();
            phase = current;
            progress = startProgress(PHASE_LABELS[current], total, current === 'process' ? 'observations' : 'bytes');
          }
          progress?.update(done);
        },
      });
      if (fleet) await fleet.publish(store, result);
    } finally {
      (progress as Progress | null)?.stop();
      await fleet?.close();
    }
    const points = onlyCheck === undefined ? null : await storedPoints(store, result, onlyCheck);
    return { dataDir: store.dataDir, result, points };
  } finally {
    await store.close();
  }
}

async function storedPoints(store: Store, result: InspectionResult, checkId: string): Promise<Point[]> {
  if (!result.process.checks.some((c) => c.checkId === checkId)) {
    throw new UsageError(`unknown check '${checkId}' (known: ${result.process.checks.map((c) => c.checkId).join(', ')})`);
  }
  // A negative LIMIT is no limit in SQLite: every point, in order, in one query.
  return store.readRun(result.latestIngestRunId, (run) => run.readCheckPoints(result.process.checkKey, checkId, { limit: -1, offset: 0 }).points);
}

/** One line per stage: reused or ran, and how long it took. */
export function formatStages(result: InspectionResult, dataDir: string): string {
  const parts = result.stages.map((s) => `${s.stage} ${s.reused ? 'reused' : 'ran'} (${formatMs(s.elapsedMs)})`);
  return `Store ${dataDir}: ${parts.join(', ')}; ingest run ${result.latestIngestRunId}`;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** `inspect --store --catalog URL`: this machine as a one-off node of the fleet (docs/fleet.md). */
async function fleetNode(url: string): Promise<{ reuse(store: Store, path: string): Promise<void>; publish(store: Store, result: InspectionResult): Promise<void>; close(): Promise<void> }> {
  const { connectPostgresCatalog } = await import('@klvscope/adapters/postgres');
  const { reuseFleetInspection } = await import('../fleet/run-import.js');
  const { publishInspection } = await import('../fleet/run-publication.js');
  const catalog = await connectPostgresCatalog(url, { maxConnections: 2, applicationName: 'klvscope-inspect' });
  return {
    reuse: (store, path) => reuseFleetInspection(store, catalog, path, path),
    async publish(store, result) {
      const { path, fileHash: hash, latestIngestRunId: runId, key } = result;
      const published = await publishInspection(store, catalog.connection, { hash, path, localPath: path, runId, parseKey: key.parseKey }, `${hostname()}-${process.pid}-inspect`);
      process.stderr.write(`Fleet ${catalog.connection.where}: ${published.stored ? 'published' : 'already held'} ingest run ${published.runId}\n`);
    },
    close: () => catalog.close(),
  };
}
