/**
 * The points of the `process` stage, kept in the run database beside the
 * observations they come from: a run's results are saved with the run (a
 * save never touches another run), and a detail endpoint pages through them
 * without re-running anything. Points are keyed by the compatibility key of
 * the process (checks and rules), so results under other rules do not mix.
 */
import type { Database, SqlValue, Statement } from 'sql.js';
import type { Point } from '../kernel/check-point.js';
import type { Severity } from '../kernel/observations.js';
import { execute, numberColumn, selectOne } from './sql-query.js';
import { batchedTransactions } from './sql-transaction.js';

export const CHECK_POINTS_SCHEMA = `
  CREATE TABLE check_points (
    check_key TEXT NOT NULL,
    check_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    t REAL,
    "offset" INTEGER NOT NULL,
    packet_index INTEGER NOT NULL,
    pid INTEGER NOT NULL,
    value REAL,
    unit TEXT,
    violation INTEGER NOT NULL,
    severity TEXT NOT NULL,
    message TEXT NOT NULL,
    citation TEXT,
    type TEXT,
    PRIMARY KEY (check_key, check_id, n)
  ) WITHOUT ROWID`;

/** Rows per transaction while writing: big enough to be fast, small enough to bound the journal. */
const ROWS_PER_TRANSACTION = 20_000;

export interface CheckPointWriter {
  /** Stores one point of a check (a PointSink). */
  write(point: Point, checkId: string): void;
  /** Commits what is written; returns points stored per check. */
  finish(): Record<string, number>;
  /** Rolls back the open transaction (the points written before it stay: delete them by key). */
  abort(): void;
}

/** Writes the points of one process run under `checkKey`, replacing any stored under it before. */
export function createCheckPointWriter(db: Database, checkKey: string): CheckPointWriter {
  deleteCheckPoints(db, checkKey);
  const insert: Statement = db.prepare(
    `INSERT INTO check_points (check_key, check_id, n, t, "offset", packet_index, pid, value, unit, violation, severity, message, citation, type)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const counts: Record<string, number> = {};
  const transactions = batchedTransactions(db, ROWS_PER_TRANSACTION);
  let closed = false;
  const row = new Array<string | number | null>(14).fill(null);
  row[0] = checkKey;
  return {
    write(point, checkId) {
      transactions.beforeRow();
      const n = counts[checkId] ?? 0;
      counts[checkId] = n + 1;
      row[1] = checkId;
      row[2] = n;
      row[3] = point.t;
      row[4] = point.offset;
      row[5] = point.packetIndex;
      row[6] = point.pid;
      row[7] = point.value;
      row[8] = point.unit;
      row[9] = point.violation ? 1 : 0;
      row[10] = point.severity;
      row[11] = point.message;
      row[12] = point.citation;
      row[13] = point.type ?? null;
      insert.run(row);
      transactions.afterRow();
    },
    finish() {
      transactions.commit();
      close();
      return { ...counts };
    },
    abort() {
      transactions.rollback();
      close();
    },
  };

  function close(): void {
    if (closed) return;
    closed = true;
    insert.free();
  }
}

export interface CheckPointQuery {
  /** Only points whose `type` is one of these. */
  types?: readonly string[];
  /** Only violations. */
  violationsOnly?: boolean;
  limit: number;
  offset: number;
}

export interface CheckPointPage {
  /** Points matching the filters, all pages together. */
  total: number;
  points: Point[];
}

/** One page of a check's stored points, in emission order. */
export function readCheckPoints(db: Database, checkKey: string, checkId: string, query: CheckPointQuery): CheckPointPage {
  const params: Record<string, string | number> = { $key: checkKey, $check: checkId };
  let where = 'check_key = $key AND check_id = $check';
  if (query.types && query.types.length > 0) {
    where += ` AND type IN (${query.types.map((_, i) => `$type${i}`).join(', ')})`;
    query.types.forEach((type, i) => (params[`$type${i}`] = type));
  }
  if (query.violationsOnly) where += ' AND violation = 1';
  const total = numberColumn(selectOne(db, `SELECT count(*) AS total FROM check_points WHERE ${where}`, params) ?? {}, 'total');
  const statement = db.prepare(`SELECT ${POINT_COLUMNS} FROM check_points WHERE ${where} ORDER BY n LIMIT $limit OFFSET $offset`);
  const points: Point[] = [];
  try {
    statement.bind({ ...params, $limit: query.limit, $offset: query.offset });
    // Rows as arrays in a known column order: getAsObject decodes every column name again for each row.
    while (statement.step()) points.push(pointFrom(statement.get()));
  } finally {
    statement.free();
  }
  return { total, points };
}

/** Deletes the points stored under a key (a cancelled or failed process); returns how many went. */
export function deleteCheckPoints(db: Database, checkKey: string): number {
  return execute(db, 'DELETE FROM check_points WHERE check_key = $key', { $key: checkKey });
}

/** The columns of a point, in the order pointFrom reads them. */
const POINT_COLUMNS = 't, "offset", packet_index, pid, value, unit, violation, severity, message, citation, type';

function pointFrom(row: SqlValue[]): Point {
  const [t, offset, packetIndex, pid, value, unit, violation, severity, message, citation, type] = row;
  const point: Point = {
    t: t as number | null,
    offset: offset as number,
    packetIndex: packetIndex as number,
    pid: pid as number,
    value: value as number | null,
    unit: unit as string | null,
    violation: violation === 1,
    severity: severity as Severity,
    message: message as string,
    citation: citation as string | null,
  };
  return type === null ? point : { ...point, type: type as string };
}
