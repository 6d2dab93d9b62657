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

/** Every session, most recently updated first. */
export function listSessions(db: Database): SessionRow[] {
  return selectAll(db, 'SELECT * FROM sessions ORDER BY updated_ms DESC, rowid DESC').map((row) => sessionFrom(row));
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
