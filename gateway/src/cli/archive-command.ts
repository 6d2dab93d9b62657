/**
 * `klvscope archive ls|show|rm`: the files analysed into a data folder
 * (--store DIR, else KLVSCOPE_DATA_DIR, else ./data).
 */
import { Store, defaultDataDir, findArchiveEntryByPath } from '@klvscope/core/store';
import { archiveEntryDetail, deleteFromArchive, listArchive } from '@klvscope/core/workflow';
import { resolve } from 'node:path';
import { UsageError } from './usage-error.js';

export interface ArchiveOptions {
  store?: string;
  json?: boolean;
}

async function withStore<T>(options: ArchiveOptions, work: (store: Store) => Promise<T> | T): Promise<T> {
  const store = await Store.open({ dataDir: options.store ?? defaultDataDir() });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

export async function runArchiveList(options: ArchiveOptions): Promise<void> {
  const entries = await withStore(options, listArchive);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    return;
  }
  if (entries.length === 0) {
    process.stdout.write('The archive is empty.\n');
    return;
  }
  for (const e of entries) {
    process.stdout.write(`${e.hash}  ${mb(e.size).padStart(10)}  ${new Date(e.updatedMs).toISOString()}  ${e.stages.join(',').padEnd(22)}  ${e.firstPath}\n`);
  }
}

/** An entry by hash (or a unique prefix of one) or by the path of the file. */
export async function runArchiveShow(hashOrPath: string, options: ArchiveOptions): Promise<void> {
  const detail = await withStore(options, (store) => {
    const hash = resolveHash(store, hashOrPath);
    return archiveEntryDetail(store, hash);
  });
  if (!detail) throw new UsageError(`nothing archived for ${hashOrPath}`);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(detail, null, 2)}\n`);
    return;
  }
  const lines = [
    `File     ${detail.firstPath}`,
    `Hash     ${detail.hash}`,
    `Size     ${mb(detail.size)}`,
    `Stages   ${detail.stages.join(', ')}`,
    `Runs     ${detail.ingestRuns.length}`,
    ...detail.ingestRuns.map((r) => `  ${r.id}  ${r.status.padEnd(11)}  ${new Date(r.startedMs).toISOString()}  ${Object.values(r.counts).reduce((n, c) => n + c, 0)} rows${r.error ? `  (${r.error})` : ''}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

export async function runArchiveRemove(hashesOrPaths: string[], options: ArchiveOptions): Promise<void> {
  const deleted = await withStore(options, (store) => deleteFromArchive(store, hashesOrPaths.map((h) => resolveHash(store, h))));
  process.stdout.write(`Deleted ${deleted.length} of ${hashesOrPaths.length} entr${hashesOrPaths.length === 1 ? 'y' : 'ies'}.\n`);
}

function resolveHash(store: Store, hashOrPath: string): string {
  const byPath = findArchiveEntryByPath(store.catalog.db, resolve(hashOrPath));
  if (byPath) return byPath.hash;
  const matches = listArchive(store).filter((e) => e.hash.startsWith(hashOrPath.toLowerCase()));
  if (matches.length > 1) throw new UsageError(`'${hashOrPath}' matches ${matches.length} archived files: give more of the hash`);
  return matches[0]?.hash ?? hashOrPath;
}
