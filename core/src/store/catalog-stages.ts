/**
 * Cached workflow stage payloads, per file hash, stage and compatibility key:
 * a payload made under another key (other rules, other checks) is not reused.
 */
import type { Database } from 'sql.js';
import { execute, jsonColumn, numberColumn, selectAll, selectOne, textColumn, type SqlRow } from './sql-query.js';

/** The workflow stages whose results are cached (the spec caches analyze, ingest and process). */
export type CachedStage = 'analyze' | 'ingest' | 'process';

/** The cached stages in workflow order. */
export const CACHED_STAGES: readonly CachedStage[] = ['analyze', 'ingest', 'process'];

export interface StagePayloadRow<T = unknown> {
  hash: string;
  stage: CachedStage;
  compatibilityKey: string;
  payload: T;
  createdMs: number;
}

/** Stores (or replaces) the payload of one stage under one key. */
export function putStagePayload(db: Database, row: StagePayloadRow): void {
  execute(
    db,
    `INSERT INTO stage_payloads (hash, stage, compatibility_key, payload, created_ms) VALUES ($hash, $stage, $key, $payload, $created)
     ON CONFLICT (hash, stage, compatibility_key) DO UPDATE SET payload = excluded.payload, created_ms = excluded.created_ms`,
    { $hash: row.hash, $stage: row.stage, $key: row.compatibilityKey, $payload: JSON.stringify(row.payload), $created: row.createdMs },
  );
}

export function getStagePayload<T = unknown>(db: Database, hash: string, stage: CachedStage, compatibilityKey: string): StagePayloadRow<T> | undefined {
  const row = selectOne(db, 'SELECT * FROM stage_payloads WHERE hash = $hash AND stage = $stage AND compatibility_key = $key', {
    $hash: hash,
    $stage: stage,
    $key: compatibilityKey,
  });
  return row && stagePayloadFrom<T>(row);
}

/**
 * A cheap token of the payload stored for (hash, stage, key): its creation
 * time and size in bytes (octet_length: SQLite's length() of a TEXT value
 * reads and counts its characters), without parsing it; undefined when none is
 * stored. A reader that keeps a parsed payload compares tokens to know it
 * is still the stored one.
 */
export function stagePayloadVersion(db: Database, hash: string, stage: CachedStage, compatibilityKey: string): string | undefined {
  const row = selectOne(db, 'SELECT created_ms, octet_length(payload) AS size FROM stage_payloads WHERE hash = $hash AND stage = $stage AND compatibility_key = $key', {
    $hash: hash,
    $stage: stage,
    $key: compatibilityKey,
  });
  return row && `${numberColumn(row, 'created_ms')}:${numberColumn(row, 'size')}`;
}

/** The stages cached for a hash under a key, in workflow order. */
export function cachedStages(db: Database, hash: string, compatibilityKey: string): CachedStage[] {
  const present = new Set(selectAll(db, 'SELECT stage FROM stage_payloads WHERE hash = $hash AND compatibility_key = $key', { $hash: hash, $key: compatibilityKey }).map((row) => textColumn(row, 'stage')));
  return CACHED_STAGES.filter((stage) => present.has(stage));
}

/** Deletes every payload of a hash, under any key; returns how many went. */
export function deleteStagePayloads(db: Database, hash: string): number {
  return execute(db, 'DELETE FROM stage_payloads WHERE hash = $hash', { $hash: hash });
}

export function stagePayloadFrom<T>(row: SqlRow): StagePayloadRow<T> {
  return {
    hash: textColumn(row, 'hash'),
    stage: textColumn(row, 'stage') as CachedStage,
    compatibilityKey: textColumn(row, 'compatibility_key'),
    payload: jsonColumn<T>(row, 'payload'),
    createdMs: numberColumn(row, 'created_ms'),
  };
}

/** Every payload of a hash, under any key (to copy a file's entry from one catalog to another). */
export function listStagePayloads(db: Database, hash: string): StagePayloadRow[] {
  return selectAll(db, 'SELECT * FROM stage_payloads WHERE hash = $hash ORDER BY stage, compatibility_key', { $hash: hash }).map((row) => stagePayloadFrom(row));
}
