/**
 * Where a dataset's rows are: a run's observations are stored in parts, each
 * its own database of bounded size holding a stretch of the emission order
 * (the store's stored-run.ts), or, in the tests, in one database. A part's
 * summary (its last `seq`, its rows of each kind, and of the filtered kinds
 * its rows by filter value) lets a query find its total and the part where a
 * page starts without opening any part, and skip the parts it has no row in.
 */
import type { Database } from 'sql.js';
import type { ObservationKind } from '../../kernel/observations.js';
import { OBSERVATION_KINDS } from '../../kernel/observation-kinds.js';
import { derivedFields } from './klv-field-derivation.js';
import { blockRowsByKind } from './observation-block-codec.js';
import { emptyObservationCounts, type ObservationCounts } from './observation-counts.js';
import { OBSERVATION_TABLES } from './observation-columns.js';

/** The filter column of each filtered kind: its values are counted per part. */
export const FILTER_COLUMNS: Readonly<Partial<Record<ObservationKind, string>>> = { 'psi-section': 'table_type', 'ts-error': 'type' };

export interface DatasetPart {
  /** The largest `seq` the part holds (its rows follow every row of the parts before it). */
  readonly lastSeq: number;
  /** Rows per kind (kinds without rows may be absent). */
  readonly rows: Readonly<Partial<Record<ObservationKind, number>>>;
  /** Of each kind in FILTER_COLUMNS: rows per value of its filter column. */
  readonly byFilter: Readonly<Partial<Record<ObservationKind, Readonly<Record<string, number>>>>>;
}

/** An open part, kept open until released (a page being sent holds its part across awaits). */
export interface PartHandle {
  readonly db: Database;
  release(): void;
}

export interface DatasetParts {
  /** In `seq` order. */
  readonly parts: readonly DatasetPart[];
  /** Opens part `index` (synchronous: a page runs from one part into the next without waiting). */
  open(index: number): PartHandle;
}

/** The summary of one part's rows, by counting them. */
export function summarizePart(db: Database): DatasetPart {
  const rows: Partial<Record<ObservationKind, number>> = {};
  const byFilter: Partial<Record<ObservationKind, Record<string, number>>> = {};
  let lastSeq = 0;
  for (const kind of OBSERVATION_KINDS) {
    const table = OBSERVATION_TABLES[kind].table;
    const [result] = db.exec(`SELECT count(*), coalesce(max(seq), 0) FROM "${table}"`);
    const [count, last] = result.values[0] as [number, number];
    if (count === 0) continue;
    rows[kind] = count;
    lastSeq = Math.max(lastSeq, last);
    const column = FILTER_COLUMNS[kind];
    if (column === undefined) continue;
    const [grouped] = db.exec(`SELECT "${column}", count(*) FROM "${table}" GROUP BY "${column}"`);
    byFilter[kind] = Object.fromEntries(grouped.values.map(([value, n]) => [String(value), Number(n)]));
  }
  for (const [kind, stored] of blockRowsByKind(db)) {
    rows[kind] = (rows[kind] ?? 0) + stored.rows;
    lastSeq = Math.max(lastSeq, stored.lastSeq);
  }
  const kept = derivedFields(db);
  if (kept.count > 0) rows['klv-field'] = (rows['klv-field'] ?? 0) + kept.count;
  return { lastSeq: Math.max(lastSeq, kept.lastSeq), rows, byFilter };
}

/** One database as the only part (a run database in memory, in the tests). */
export function singleDatabaseParts(db: Database): DatasetParts {
  return { parts: [summarizePart(db)], open: () => ({ db, release: () => undefined }) };
}

/** The rows of `kind` in a part, only those whose filter column holds one of `values` when given. */
export function partRows(part: DatasetPart, kind: ObservationKind, values: readonly string[] | null): number {
  if (values === null) return part.rows[kind] ?? 0;
  const counts = part.byFilter[kind] ?? {};
  let sum = 0;
  for (const value of values) sum += counts[value] ?? 0;
  return sum;
}

/** The rows of each kind that the parts hold together. */
export function observationCountsOf(parts: readonly DatasetPart[]): ObservationCounts {
  const counts = emptyObservationCounts();
  for (const part of parts) for (const [kind, rows] of Object.entries(part.rows)) counts[kind as keyof ObservationCounts] += rows;
  return counts;
}
