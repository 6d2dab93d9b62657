/**
 * A worker's inspection made public: what its scratch data folder holds of
 * one file (the file, the path's record, the stage payloads, the completed
 * ingest run and that run's files) copied into the fleet's PostgreSQL.
 * The run's files go first, each in its own statement; then one transaction
 * lists the run and its payloads, so the run is visible only once every
 * file of it is committed. Content-addressed: under a lock on the file's
 * hash, a run of the same content and parser already listed wins, and this
 * one's files are deleted (two workers given one content make one run).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deleteRunFiles, postgresCatalogOperations, putRunFile, setRunWorker, type PostgresConnection } from '@klvscope/adapters/postgres';
import { getFile, getFileRecord, getIngestRun, listStagePayloads, type Store } from '@klvscope/core/store';

export interface Publication {
  /** The run the catalog lists for the content now: this worker's, or the one another stored first. */
  runId: string;
  /** False when a run of the same content was listed already (another worker's: this one's files were dropped). */
  stored: boolean;
  /** Bytes of run files sent. */
  bytes: number;
}

export async function publishInspection(
  store: Store,
  fleet: PostgresConnection,
  /** `path` as queued (the catalog's), `localPath` as this worker reads it (--path-map). */
  inspected: { hash: string; path: string; localPath: string; runId: string; parseKey: string },
  worker: string,
  now: () => number = Date.now,
): Promise<Publication> {
  const local = store.catalog.db;
  const run = getIngestRun(local, inspected.runId);
  const file = getFile(local, inspected.hash);
  if (run?.status !== 'completed' || file === undefined) throw new Error(`ingest run ${inspected.runId} of ${inspected.path} is not completed in the worker's data folder`);
  const localRecord = getFileRecord(local, inspected.localPath);
  const record = localRecord && { ...localRecord, path: inspected.path };
  const payloads = listStagePayloads(local, inspected.hash);

  // A run copied from the fleet (its stages reused) is there already: its files are not sent again.
  const alreadyListed = (await postgresCatalogOperations(fleet).getIngestRun(run.id))?.status === 'completed';
  const folder = store.runFolderPath(run.id);
  let bytes = 0;
  for (const fileName of alreadyListed ? [] : (await readdir(folder)).sort()) {
    // Temporaries of an atomic write (atomic-write.ts) are not part of the run.
    if (!fileName.endsWith('.sqlite')) continue;
    const content = await readFile(join(folder, fileName));
    await putRunFile(fleet, run.id, { fileName, bytes: content }, now());
    bytes += content.byteLength;
  }

  const listed = await fleet.transaction(async (db) => {
    await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [inspected.hash]);
    const catalog = postgresCatalogOperations(db);
    await catalog.putFile({ ...file, firstPath: file.firstPath === inspected.localPath ? inspected.path : file.firstPath });
    if (record) await catalog.putFileRecord(record);
    const existing = await catalog.getStagePayload<{ runId?: string }>(inspected.hash, 'ingest', inspected.parseKey);
    const existingRun = existing?.payload.runId === undefined ? undefined : await catalog.getIngestRun(existing.payload.runId);
    if (existingRun?.status === 'completed') {
      // A run of this content is listed (another worker's, or this one copied in): keep it, and add only the payloads
      // it lacks (a process under other rules) that name no other run.
      for (const payload of payloads) {
        const named = (payload.payload as { runId?: string }).runId;
        if (named !== undefined && named !== existingRun.id) continue;
        if ((await catalog.getStagePayload(payload.hash, payload.stage, payload.compatibilityKey)) === undefined) await catalog.putStagePayload(payload);
      }
      return { runId: existingRun.id, stored: false };
    }
    if ((await catalog.getIngestRun(run.id)) === undefined) {
      await catalog.createIngestRun({ id: run.id, hash: run.hash, path: inspected.path, startedMs: run.startedMs });
      await catalog.finishIngestRun(run.id, { status: 'completed', finishedMs: run.finishedMs ?? now(), counts: run.counts, timings: run.timings, error: run.error });
      await setRunWorker(db, run.id, worker);
    }
    for (const payload of payloads) await catalog.putStagePayload(payload);
    return { runId: run.id, stored: true };
  });
  if (listed.runId !== run.id) await deleteRunFiles(fleet, run.id);
  return { ...listed, bytes };
}
