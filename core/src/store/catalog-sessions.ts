/**
 * Inspection sessions (recorded file or live feed). The catalog keeps who
 * and when; what a session holds (`state`: stage, workspace, …) is the
 * workflow's to define, stored as JSON.
 */
import type { Database } from 'sql.js';
import { execute, jsonColumn, numberColumn, selectAll, selectOne, textColumn, type SqlRow } from './sql-query.js';

export type SessionKind = 'file' | 'live';

export interface SessionRow<S = unknown> {
  id: string;
  kind: SessionKind;
  /** A file path, or a live source such as `udp://239.1.1.1:5000`. */
  source: string;
  status: string;
  createdMs: number;
  updatedMs: number;
  state: S;
}

/** Inserts or replaces a session; a replaced one keeps its creation time. */
export function putSession(db: Database, session: SessionRow): void {
  execute(
    db,
    `INSERT INTO sessions (id, kind, source, status, created_ms, updated_ms, state) VALUES ($id, $kind, $source, $status, $created, $updated, $state)
     ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, source = excluded.source, status = excluded.status, updated_ms = excluded.updated_ms, state = excluded.state`,
    {
      $id: session.id,
      $kind: session.kind,
      $source: session.source,
      $status: session.status,
      $created: session.createdMs,
      $updated: session.updatedMs,
      $state: JSON.stringify(session.state),
    },
  );
}

export function getSession<S = unknown>(db: Database, id: string): SessionRow<S> | undefined {
  const row = selectOne(db, 'SELECT * FROM sessions WHERE id = $id', { $id: id });
  return row && sessionFrom<S>(row);
}

/** Which sessions to list; the `kind` and `status` columns mirror the state, so SQL filters before any JSON is parsed. */
export interface SessionFilter {
  kind?: SessionKind;
  /** Only sessions in one of these statuses. */
  statuses?: readonly string[];
}

/** The sessions the filter lets through (every one without it), most recently updated first. */
export function listSessions(db: Database, filter: SessionFilter = {}): SessionRow[] {
  const conditions: string[] = [];
  const params: Record<string, string> = {};
  if (filter.kind !== undefined) {
    conditions.push('kind = $kind');
    params.$kind = filter.kind;
  }
  if (filter.statuses !== undefined) {
    conditions.push(`status IN (${filter.statuses.map((_, i) => `$status${i}`).join(', ')})`);
    filter.statuses.forEach((status, i) => (params[`$status${i}`] = status));
  }
  const where = conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`;
  return selectAll(db, `SELECT * FROM sessions${where} ORDER BY updated_ms DESC, rowid DESC`, params).map((row) => sessionFrom(row));
}

export function deleteSession(db: Database, id: string): boolean {
  return execute(db, 'DELETE FROM sessions WHERE id = $id', { $id: id }) === 1;
}

function sessionFrom<S>(row: SqlRow): SessionRow<S> {
  return {
    id: textColumn(row, 'id'),
    kind: textColumn(row, 'kind') as SessionKind,
    source: textColumn(row, 'source'),
    status: textColumn(row, 'status'),
    createdMs: numberColumn(row, 'created_ms'),
    updatedMs: numberColumn(row, 'updated_ms'),
    state: jsonColumn<S>(row, 'state'),
  };
}
