/**
 * `klvscope export RUN DATASET --format FORMAT --out FILE`: one raw dataset
 * of a stored ingest run (docs/store.md "Raw datasets") as Arrow IPC,
 * Parquet, NDJSON or CSV, or the run's flight (`klv/track`) as GeoJSON, KML
 * or GPX: the same bytes the REST export sends. Written to FILE under a
 * temporary name and renamed once complete, so a failed or interrupted
 * export never leaves half a file under the name asked for (on a full disk:
 * ERR_STORE_DISK_FULL naming the folder, and no temporary left); `--out -`
 * writes to stdout.
 */
import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync, type WriteStream } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  COLUMNAR_FORMATS,
  defaultDataDir,
  diskFullError,
  exportDataset,
  exportDatasetColumnar,
  exportFlightTrack,
  getIngestRun,
  isRawDatasetName,
  rawDataset,
  RAW_DATASET_NAMES,
  Store,
  TRACK_FORMATS,
} from '@klvscope/core/store';
import { UsageError } from './usage-error.js';

export interface ExportOptions {
  store?: string;
  format: string;
  out: string;
}

/** The flight of a run, beside the raw datasets (its REST path is `klv/track` too). */
export const TRACK_DATASET = 'klv/track';
const DATASET_EXPORT_FORMATS: readonly string[] = ['arrow', 'parquet', 'ndjson', 'csv'];

async function writeAll(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, out: NodeJS.WritableStream | WriteStream): Promise<void> {
  for await (const chunk of chunks) {
    // Backpressure: a slow disk or pipe slows the reading, not the memory.
    if (!out.write(chunk)) await once(out, 'drain');
  }
}

function checkFormat(dataset: string, format: string): void {
  const allowed = dataset === TRACK_DATASET ? TRACK_FORMATS : DATASET_EXPORT_FORMATS;
  if (!allowed.includes(format)) throw new UsageError(`--format for ${dataset} must be one of ${allowed.join(', ')}, not '${format}'`);
}

export async function runExport(runId: string, dataset: string, options: ExportOptions): Promise<void> {
  if (dataset !== TRACK_DATASET && !isRawDatasetName(dataset)) {
    throw new UsageError(`no dataset '${dataset}' (known: ${[...RAW_DATASET_NAMES, TRACK_DATASET].join(', ')})`);
  }
  checkFormat(dataset, options.format);
  const store = await Store.open({ dataDir: resolve(options.store ?? defaultDataDir()) });
  try {
    const run = getIngestRun(store.catalog.db, runId);
    if (!run) throw new UsageError(`no ingest run '${runId}' in ${store.dataDir}`);
    if (run.status !== 'completed') throw new UsageError(`ingest run '${runId}' is ${run.status}: only a completed run has datasets`);
    const lease = await store.leaseRun(run.id);
    try {
      const source = lease.database;
      const format = options.format;
      const chunks =
        dataset === TRACK_DATASET
          ? exportFlightTrack(source, format, `klvscope flight ${run.path} (ingest run ${run.id})`)
          : (COLUMNAR_FORMATS as readonly string[]).includes(format)
            ? exportDatasetColumnar(source, dataset, format, { unfilteredTotal: run.counts[rawDataset(dataset).kind] })
            : exportDataset(source, dataset, format);
      if (options.out === '-') {
        await writeAll(chunks, process.stdout);
        return;
      }
      const target = resolve(options.out);
      const temporary = `${target}.tmp-${process.pid}`;
      const file = createWriteStream(temporary);
      try {
        await writeAll(chunks, file);
        file.end();
        await once(file, 'close');
        renameSync(temporary, target);
      } catch (error) {
        file.destroy();
        rmSync(temporary, { force: true });
        throw diskFullError(error, dirname(target), `${target} was not written (no part of it is left, and a file of that name is as it was): export again once there is space`, { path: target }) ?? error;
      }
    } finally {
      lease.release();
    }
  } finally {
    await store.close();
  }
}
