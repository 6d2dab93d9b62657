/**
 * The analysis archive as users see it: an entry per analysed file, with
 * its ingest runs. Deleting entries deletes their cached stages, their
 * ingest runs and the runs' database files, so nothing of the file is left
 * but its hash record (which costs nothing and saves a re-hash).
 */
import { deleteStagePayloads } from '../store/catalog-stages.js';
import { getArchiveEntry, listArchiveEntries, type ArchiveEntry } from '../store/catalog-archive.js';
import { deleteIngestRun, listIngestRuns, type IngestRunRow } from '../store/catalog-ingest-runs.js';
import type { Store } from '../store/store.js';

export interface ArchiveEntryDetail extends ArchiveEntry {
  ingestRuns: IngestRunRow[];
}

export function listArchive(store: Store): ArchiveEntry[] {
  return listArchiveEntries(store.catalog.db);
}

export function archiveEntryDetail(store: Store, hash: string): ArchiveEntryDetail | null {
  const entry = getArchiveEntry(store.catalog.db, hash);
  return entry ? { ...entry, ingestRuns: listIngestRuns(store.catalog.db, hash) } : null;
}

/** Deletes the entries of these hashes with their runs; returns the hashes that had anything stored. */
export async function deleteFromArchive(store: Store, hashes: readonly string[]): Promise<string[]> {
  const db = store.catalog.db;
  const deleted: string[] = [];
  const runFiles: string[] = [];
  for (const hash of new Set(hashes)) {
    const runs = listIngestRuns(db, hash);
    const payloads = deleteStagePayloads(db, hash);
    for (const run of runs) {
      deleteIngestRun(db, run.id);
      runFiles.push(run.id);
    }
    if (payloads > 0 || runs.length > 0) deleted.push(hash);
  }
  // The catalog first: a crash between the two leaves run files no row names (harmless), never rows naming no file.
  await store.saveCatalog();
  for (const id of runFiles) await store.deleteRun(id);
  return deleted;
}
