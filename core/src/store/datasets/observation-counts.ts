/**
 * How many observations of each kind a run database holds: the counts of
 * the ingest-run summary row, and a check that a replay saw them all.
 */
import type { Database } from 'sql.js';
import type { ObservationKind } from '../../kernel/observations.js';
import { OBSERVATION_KINDS } from '../../kernel/observation-kinds.js';
import { derivedFields } from './klv-field-derivation.js';
import { blockRowsByKind } from './observation-block-codec.js';
import { OBSERVATION_TABLES } from './observation-columns.js';

export type ObservationCounts = Record<ObservationKind, number>;

/** Every kind at 0, in OBSERVATION_KINDS order. */
export function emptyObservationCounts(): ObservationCounts {
  return Object.fromEntries(OBSERVATION_KINDS.map((kind) => [kind, 0])) as ObservationCounts;
}

/** The observations of each kind stored (the rows of its table or its blocks; with the fields the metadata packets keep as items). */
export function countObservations(db: Database): ObservationCounts {
  const counts = emptyObservationCounts();
  for (const kind of OBSERVATION_KINDS) {
    const [result] = db.exec(`SELECT count(*) FROM "${OBSERVATION_TABLES[kind].table}"`);
    counts[kind] = Number(result.values[0][0]);
  }
  for (const [kind, stored] of blockRowsByKind(db)) counts[kind] += stored.rows;
  counts['klv-field'] += derivedFields(db).count;
  return counts;
}

/** The sum over all kinds. */
export function totalObservations(counts: Readonly<ObservationCounts>): number {
  return OBSERVATION_KINDS.reduce((sum, kind) => sum + counts[kind], 0);
}
