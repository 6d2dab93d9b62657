/**
 * What must be equal between a fleet's inspection of a file and the single
 * node's `klvscope inspect --store` of it: the verdicts, the per-PID counts,
 * and every raw dataset's row count and the sha256 of its NDJSON export.
 */
import { createHash } from 'node:crypto';
import { exportDataset, latestCompletedIngestRun, RAW_DATASETS, type Store } from '@klvscope/core/store';
import type { ProcessPayload } from '@klvscope/core/workflow';
import { getStagePayload } from '@klvscope/core/store';
import type { AnalyzePayload } from '@klvscope/core/workflow';

export interface InspectionFingerprint {
  checks: Record<string, { status: string; pointsStored: number }>;
  pids: { pid: number; packets: number; pesCount: number }[];
  errorCounts: Record<string, number>;
  datasets: Record<string, { rows: number; sha256: string }>;
}

export async function inspectionFingerprint(store: Store, hash: string, keys: { parseKey: string; checkKey: string }): Promise<InspectionFingerprint> {
  const db = store.catalog.db;
  const analyze = getStagePayload<AnalyzePayload>(db, hash, 'analyze', keys.parseKey)?.payload;
  const processed = getStagePayload<ProcessPayload>(db, hash, 'process', keys.checkKey)?.payload;
  const run = latestCompletedIngestRun(db, hash);
  if (!analyze || !processed || !run) throw new Error(`file ${hash} is not inspected in ${store.dataDir}`);
  const datasets: InspectionFingerprint['datasets'] = {};
  await store.readRun(run.id, (stored) => {
    for (const dataset of RAW_DATASETS) {
      const digest = createHash('sha256');
      let rows = 0;
      for (const chunk of exportDataset(stored, dataset.name, 'ndjson')) {
        digest.update(chunk);
        for (const byte of chunk) if (byte === 0x0a) rows++;
      }
      datasets[dataset.name] = { rows, sha256: digest.digest('hex') };
    }
  });
  return {
    checks: Object.fromEntries(processed.checks.map((check) => [check.checkId, { status: check.status, pointsStored: check.pointsStored }])),
    pids: analyze.inventory.pids.map(({ pid, packets, pesCount }) => ({ pid, packets, pesCount })),
    errorCounts: analyze.inventory.errorCounts,
    datasets,
  };
}
