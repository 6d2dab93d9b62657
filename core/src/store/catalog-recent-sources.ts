/** The recent-sources list: files and feeds opened lately, one entry per (kind, source). */
import type { Database } from 'sql.js';
import { execute, numberColumn, selectAll, selectOne, textColumn, type SqlRow } from './sql-query.js';

export type RecentSourceKind = 'file' | 'udp' | 'serial';

export interface RecentSourceRow {
  id: number;
  source: string;
  kind: RecentSourceKind;
  lastUsedMs: number;
}

/** Records a use: a new entry, or the existing one's time moved forward. */
export function touchRecentSource(db: Database, kind: RecentSourceKind, source: string, usedMs: number): RecentSourceRow {
  execute(
    db,
    `INSERT INTO recent_sources (source, kind, last_used_ms) VALUES ($source, $kind, $used)
     ON CONFLICT (kind, source) DO UPDATE SET last_used_ms = max(last_used_ms, excluded.last_used_ms)`,
    { $source: source, $kind: kind, $used: usedMs },
  );
  return recentSourceFrom(selectOne(db, 'SELECT * FROM recent_sources WHERE kind = $kind AND source = $source', { $kind: kind, $source: source }) ?? {});
}

/** The most recently used first, at most `limit`. */
export function listRecentSources(db: Database, limit = 50): RecentSourceRow[] {
  return selectAll(db, 'SELECT * FROM recent_sources ORDER BY last_used_ms DESC, id DESC LIMIT $limit', { $limit: limit }).map(recentSourceFrom);
}

export function removeRecentSource(db: Database, id: number): boolean {
  return execute(db, 'DELETE FROM recent_sources WHERE id = $id', { $id: id }) === 1;
}

function recentSourceFrom(row: SqlRow): RecentSourceRow {
  return { id: numberColumn(row, 'id'), source: textColumn(row, 'source'), kind: textColumn(row, 'kind') as RecentSourceKind, lastUsedMs: numberColumn(row, 'last_used_ms') };
}
