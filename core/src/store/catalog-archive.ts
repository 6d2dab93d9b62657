/**
 * The analysis archive, derived rather than stored: an entry is a known file
 * (files) with at least one cached stage payload (stage_payloads). Deleting
 * an entry deletes its payloads; the file row and its ingest runs stay (runs
 * are their own resource, with their own database files).
 */
import type { Database } from 'sql.js';
import { CACHED_STAGES, type CachedStage } from './catalog-stages.js';
import { numberColumn, selectAll, selectOne, textColumn, type SqlRow } from './sql-query.js';

export interface ArchiveEntry {
  hash: string;
  size: number;
  firstPath: string;
  /** The stages cached under any compatibility key, in workflow order. */
  stages: CachedStage[];
  /** The newest payload's creation time. */
  updatedMs: number;
}

const ENTRY_QUERY = `
  SELECT f.hash, f.size, f.first_path, group_concat(DISTINCT s.stage) AS stages, max(s.created_ms) AS updated_ms
  FROM files f JOIN stage_payloads s ON s.hash = f.hash`;

/** Every entry, most recently updated first. */
export function listArchiveEntries(db: Database): ArchiveEntry[] {
  return selectAll(db, `${ENTRY_QUERY} GROUP BY f.hash ORDER BY updated_ms DESC, f.hash`).map(archiveEntryFrom);
}

export function getArchiveEntry(db: Database, hash: string): ArchiveEntry | undefined {
  const row = selectOne(db, `${ENTRY_QUERY} WHERE f.hash = $hash GROUP BY f.hash`, { $hash: hash });
  return row && archiveEntryFrom(row);
}

/** The entry of the content last recorded at `path` (file_records), if any. */
export function findArchiveEntryByPath(db: Database, path: string): ArchiveEntry | undefined {
  const row = selectOne(db, `${ENTRY_QUERY} JOIN file_records r ON r.hash = f.hash WHERE r.path = $path GROUP BY f.hash`, { $path: path });
  return row && archiveEntryFrom(row);
}

export function archiveEntryFrom(row: SqlRow): ArchiveEntry {
  const stages = new Set(textColumn(row, 'stages').split(','));
  return {
    hash: textColumn(row, 'hash'),
    size: numberColumn(row, 'size'),
    firstPath: textColumn(row, 'first_path'),
    stages: CACHED_STAGES.filter((stage) => stages.has(stage)),
    updatedMs: numberColumn(row, 'updated_ms'),
  };
}
