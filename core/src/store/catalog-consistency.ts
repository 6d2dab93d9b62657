/**
 * The catalog's consistency check: queries, portable between SQLite and
 * PostgreSQL, each naming the rows that contradict the rest. Every row of
 * the catalog is written by a workflow that records a file (files) before
 * anything of its content, so these should find nothing after any crash.
 */
import type { CatalogInconsistency } from './catalog.js';

export const CONSISTENCY_QUERIES: readonly { kind: CatalogInconsistency['kind']; sql: string }[] = [
  {
    kind: 'record-without-file',
    sql: 'SELECT r.path AS subject FROM file_records r WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.hash = r.hash) ORDER BY r.path',
  },
  {
    kind: 'payload-without-file',
    sql: 'SELECT DISTINCT s.hash AS subject FROM stage_payloads s WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.hash = s.hash) ORDER BY s.hash',
  },
  {
    kind: 'completed-run-without-file',
    sql: "SELECT i.id AS subject FROM ingest_runs i WHERE i.status = 'completed' AND NOT EXISTS (SELECT 1 FROM files f WHERE f.hash = i.hash) ORDER BY i.id",
  },
];
