/**
 * A file's entry copied from the fleet's PostgreSQL into a node's own data
 * folder, which serves it as it serves a run it made: the file, the path's
 * record, the payloads, and each completed run they name with its files
 * (written into a temporary folder and renamed into place, so a node that
 * dies while copying leaves no half run). The data folder is a cache of
 * the fleet's catalog: whatever it lacks is copied again.
 */
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { getRunFile, listRunFiles, postgresCatalogOperations, type PostgresConnection } from '@klvscope/adapters/postgres';
import {
  createIngestRun,
  finishIngestRun,
  getIngestRun,
  putFile,
  putFileRecord,
  putStagePayload,
  type Catalog,
  type Store,
} from '@klvscope/core/store';

/** Copies what the fleet holds of `hash` (and, with `path`, that path's record) into the store; false when the fleet knows no such file. */
export async function importFromFleet(store: Store, fleet: PostgresConnection, hash: string, path?: string): Promise<boolean> {
  const catalog = postgresCatalogOperations(fleet);
  const file = await catalog.getFile(hash);
  if (file === undefined) return false;
  const record = path === undefined ? undefined : await catalog.getFileRecord(path);
  const runs = (await catalog.listIngestRuns(hash)).filter((run) => run.status === 'completed');
  const local = store.catalog.db;
  for (const run of runs) {
    if (getIngestRun(local, run.id)?.status === 'completed') continue;
    await copyRunFiles(store, fleet, run.id);
    createIngestRun(local, { id: run.id, hash: run.hash, path: run.path, startedMs: run.startedMs });
    finishIngestRun(local, run.id, { status: 'completed', finishedMs: run.finishedMs ?? run.startedMs, counts: run.counts, timings: run.timings, error: run.error });
  }
  putFile(local, file);
  if (record?.hash === hash) putFileRecord(local, record);
  // Payloads last: each names a run now in place.
  for (const payload of await catalog.listStagePayloads(hash)) putStagePayload(local, payload);
  await store.saveCatalog();
  return true;
}

async function copyRunFiles(store: Store, fleet: PostgresConnection, runId: string): Promise<void> {
  const folder = store.runFolderPath(runId);
  const incoming = `${folder}.incoming`;
  await rm(incoming, { recursive: true, force: true });
  await mkdir(incoming, { recursive: true });
  for (const { fileName } of await listRunFiles(fleet, runId)) {
    const bytes = await getRunFile(fleet, runId, fileName);
    if (bytes === undefined) throw new Error(`a file of ingest run ${runId} (${fileName}) went while it was copied`);
    await writeFile(`${incoming}/${fileName}`, bytes);
  }
  await store.deleteRun(runId);
  await rename(incoming, folder);
}

/**
 * When the fleet has `path`'s content recorded at the file's size and
 * modification time, copies its entry in (recorded at `localPath`, where
 * this node reads the file), so the workflow reuses its stages instead of
 * reading the file again.
 */
export async function reuseFleetInspection(store: Store, catalog: Catalog & { readonly connection: PostgresConnection }, path: string, localPath: string): Promise<void> {
  const record = await catalog.getFileRecord(path);
  if (record === undefined) return;
  const { size, mtimeMs } = await stat(localPath);
  if (record.size !== size || record.mtimeMs !== mtimeMs) return;
  if (!(await importFromFleet(store, catalog.connection, record.hash))) return;
  putFileRecord(store.catalog.db, { ...record, path: localPath });
  await store.saveCatalog();
}
