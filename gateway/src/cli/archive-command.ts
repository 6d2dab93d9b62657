/**
 * `klvscope archive ls|show|rm`: the files analysed into a data folder
 * (--store DIR, else KLVSCOPE_DATA_DIR, else ./data), or into a fleet's
 * catalog (--catalog URL, else KLVSCOPE_CATALOG_URL). Both are read through
 * the catalog interface; only deleting differs (a data folder's run files,
 * or the fleet's run_parts rows).
 */
import { resolve } from 'node:path';
import { createSqlJsCatalog, defaultDataDir, Store, type ArchiveEntry, type Catalog, type IngestRunRow } from '@klvscope/core/store';
import { deleteFromArchive } from '@klvscope/core/workflow';
import { catalogUrlOption } from './catalog-url.js';
import { UsageError } from './usage-error.js';

export interface ArchiveOptions {
  store?: string;
  catalog?: string;
  json?: boolean;
}

/** An archive to read and delete from: a data folder's or a fleet's. */
interface Archive {
  catalog: Catalog;
  remove(hashes: readonly string[]): Promise<string[]>;
}

async function withArchive<T>(options: ArchiveOptions, work: (archive: Archive) => Promise<T>): Promise<T> {
  const url = catalogUrlOption(options.catalog);
  if (url !== undefined) {
    if (options.store !== undefined) throw new UsageError('give --store (a data folder) or --catalog (a fleet), not both');
    const { connectPostgresCatalog } = await import('@klvscope/adapters/postgres');
    const { deleteFleetEntries } = await import('../fleet/fleet-archive.js');
    const catalog = await connectPostgresCatalog(url, { maxConnections: 2, applicationName: 'klvscope-archive' });
    try {
      return await work({ catalog, remove: (hashes) => deleteFleetEntries(catalog.connection, hashes) });
    } finally {
      await catalog.close();
    }
  }
  const store = await Store.open({ dataDir: options.store ?? defaultDataDir() });
  try {
    return await work({ catalog: createSqlJsCatalog(store.catalog), remove: (hashes) => deleteFromArchive(store, hashes) });
  } finally {
    await store.close();
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

export async function runArchiveList(options: ArchiveOptions): Promise<void> {
  const entries = await withArchive(options, ({ catalog }) => catalog.listArchiveEntries());
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
  const detail = await withArchive(options, async ({ catalog }): Promise<(ArchiveEntry & { ingestRuns: IngestRunRow[] }) | null> => {
    const hash = await resolveHash(catalog, hashOrPath);
    const entry = await catalog.getArchiveEntry(hash);
    return entry ? { ...entry, ingestRuns: await catalog.listIngestRuns(hash) } : null;
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
  const deleted = await withArchive(options, async (archive) => {
    const hashes: string[] = [];
    for (const given of hashesOrPaths) hashes.push(await resolveHash(archive.catalog, given));
    return archive.remove(hashes);
  });
  process.stdout.write(`Deleted ${deleted.length} of ${hashesOrPaths.length} entr${hashesOrPaths.length === 1 ? 'y' : 'ies'}.\n`);
}

async function resolveHash(catalog: Catalog, hashOrPath: string): Promise<string> {
  const byPath = await catalog.findArchiveEntryByPath(resolve(hashOrPath));
  if (byPath) return byPath.hash;
  const matches = (await catalog.listArchiveEntries()).filter((e) => e.hash.startsWith(hashOrPath.toLowerCase()));
  if (matches.length > 1) throw new UsageError(`'${hashOrPath}' matches ${matches.length} archived files: give more of the hash`);
  return matches[0]?.hash ?? hashOrPath;
}
