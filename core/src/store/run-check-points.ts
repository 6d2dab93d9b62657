/**
 * The points of the `process` stage, kept with the run whose observations
 * they come from (stored-run.ts): a detail endpoint pages through them
 * without re-running anything. A process run's points are stored under the
 * compatibility key of its checks and rules, in parts of their own, so
 * results under other rules do not mix.
 */
import type { Database, SqlValue, Statement } from 'sql.js';
import type { Point } from '../kernel/check-point.js';
import type { Severity } from '../kernel/observations.js';
import type { PartHandle } from './datasets/dataset-parts.js';
import type { Migration } from './schema-migrations.js';
import { batchedTransactions } from './sql-transaction.js';

/**
 * The points of one process run (one check key) are stored in parts of their
 * own (stored-run.ts), so the key is the parts', not a column. What a point
 * shares with the others of its series (check, violation, severity, message,
 * unit, citation, type: most points of a check repeat a few of them) is
 * stored once per part in `point_series`; a point row holds numbers only.
 */
export const CHECK_POINTS_SCHEMA = `
  CREATE TABLE point_series (
    series INTEGER PRIMARY KEY,
    check_no INTEGER NOT NULL,
    check_id TEXT NOT NULL,
    violation INTEGER NOT NULL,
    severity TEXT NOT NULL,
    message TEXT NOT NULL,
    unit TEXT,
    citation TEXT,
    type TEXT
  );
  CREATE TABLE check_points (
    check_no INTEGER NOT NULL,
    n INTEGER NOT NULL,
    series INTEGER NOT NULL,
    t REAL,
    "offset" INTEGER NOT NULL,
    packet_index INTEGER NOT NULL,
    pid INTEGER NOT NULL,
    value REAL,
    PRIMARY KEY (check_no, n)
  ) WITHOUT ROWID`;

export const CHECK_POINTS_MIGRATIONS: readonly Migration[] = [{ version: 1, name: 'check points', up: (db) => db.exec(CHECK_POINTS_SCHEMA) }];

/** Rows per transaction while writing: big enough to be fast, small enough to bound the journal. */
export const POINTS_PER_TRANSACTION = 20_000;

export interface CheckPointWriter {
  /** Stores one point of a check (a PointSink). */
  write(point: Point, checkId: string): void;
  /** Commits what is written; returns points stored per check. */
  finish(): Record<string, number>;
  /** Rolls back the open transaction (the points committed before it stay: the owner drops the part). */
  abort(): void;
}

/** The text of what a point shares with its series, as one key (a character no such text holds between the parts). */
function seriesKey(point: Point, checkId: string): string {
  return `${checkId}\u0000${point.violation ? 1 : 0}\u0000${point.severity}\u0000${point.message}\u0000${point.unit ?? '\u0001'}\u0000${point.citation ?? '\u0001'}\u0000${point.type ?? '\u0001'}`;
}

/**
 * Writes points into one part: `n` counts each check's points on from
 * `countsBefore` (what the parts before hold), so it runs on across parts.
 */
export function createCheckPointWriter(db: Database, countsBefore: Readonly<Record<string, number>> = {}, rowsPerTransaction = POINTS_PER_TRANSACTION): CheckPointWriter {
  const insert: Statement = db.prepare('INSERT INTO check_points (check_no, n, series, t, "offset", packet_index, pid, value) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const insertSeries: Statement = db.prepare(
    'INSERT INTO point_series (series, check_no, check_id, violation, severity, message, unit, citation, type) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const counts: Record<string, number> = { ...countsBefore };
  const checkNumbers = new Map<string, number>();
  const seriesNumbers = new Map<string, number>();
  const transactions = batchedTransactions(db, rowsPerTransaction);
  let closed = false;
  const row = new Array<number | null>(8).fill(null);
  return {
    write(point, checkId) {
      transactions.beforeRow();
      let checkNo = checkNumbers.get(checkId);
      if (checkNo === undefined) checkNumbers.set(checkId, (checkNo = checkNumbers.size));
      const key = seriesKey(point, checkId);
      let series = seriesNumbers.get(key);
      if (series === undefined) {
        seriesNumbers.set(key, (series = seriesNumbers.size));
        insertSeries.run([series, checkNo, checkId, point.violation ? 1 : 0, point.severity, point.message, point.unit, point.citation, point.type ?? null]);
      }
      const n = counts[checkId] ?? 0;
      counts[checkId] = n + 1;
      row[0] = checkNo;
      row[1] = n;
      row[2] = series;
      row[3] = point.t;
      row[4] = point.offset;
      row[5] = point.packetIndex;
      row[6] = point.pid;
      row[7] = point.value;
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
    insertSeries.free();
  }
}

/** What a part of points holds, per check: its points grouped by type and violation, as [type, violation (0 or 1), count]. */
export type PointPartSummary = Readonly<Record<string, ReadonlyArray<readonly [string | null, number, number]>>>;

/** The summary of a part of points, by counting them. */
export function summarizePointPart(db: Database): PointPartSummary {
  const summary: Record<string, [string | null, number, number][]> = {};
  const [result] = db.exec(
    'SELECT s.check_id, s.type, s.violation, count(*) FROM check_points p JOIN point_series s ON s.series = p.series GROUP BY s.check_id, s.type, s.violation',
  );
  for (const [checkId, type, violation, count] of result?.values ?? []) {
    (summary[checkId as string] ??= []).push([type as string | null, violation as number, count as number]);
  }
  return summary;
}

/** The points of one check key: its parts in order, summarized, and how to open one. */
export interface PointParts {
  readonly parts: readonly PointPartSummary[];
  open(index: number): PartHandle;
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

/** How many of a check's points in a part the query matches. */
function matching(summary: PointPartSummary, checkId: string, query: CheckPointQuery): number {
  let count = 0;
  for (const [type, violation, n] of summary[checkId] ?? []) {
    if (query.violationsOnly === true && violation !== 1) continue;
    if (query.types && query.types.length > 0 && (type === null || !query.types.includes(type))) continue;
    count += n;
  }
  return count;
}

/**
 * One page of a check's stored points, in emission order: the total from the
 * parts' summaries, the points from the part where the page starts on. A
 * negative limit is no limit.
 */
export function readCheckPoints(source: PointParts, checkId: string, query: CheckPointQuery): CheckPointPage {
  const params: Record<string, string | number> = { $check: checkId };
  let where = 'p.check_no = (SELECT check_no FROM point_series WHERE check_id = $check LIMIT 1)';
  if (query.types && query.types.length > 0) {
    where += ` AND s.type IN (${query.types.map((_, i) => `$type${i}`).join(', ')})`;
    query.types.forEach((type, i) => (params[`$type${i}`] = type));
  }
  if (query.violationsOnly) where += ' AND s.violation = 1';
  const inParts = source.parts.map((summary) => matching(summary, checkId, query));
  const total = inParts.reduce((sum, n) => sum + n, 0);
  const points: Point[] = [];
  let skip = query.offset;
  for (let index = 0; index < inParts.length; index++) {
    const wanted = query.limit < 0 ? -1 : query.limit - points.length;
    if (wanted === 0) break;
    if (skip >= inParts[index]) {
      skip -= inParts[index];
      continue;
    }
    const part = source.open(index);
    let statement: Statement | undefined;
    try {
      // CROSS JOIN keeps the points outermost: stepped in their key's order (check, n), each looking up its series.
      statement = part.db.prepare(
        `SELECT ${POINT_COLUMNS} FROM check_points p CROSS JOIN point_series s ON s.series = p.series WHERE ${where} ORDER BY p.n LIMIT $limit OFFSET $offset`,
      );
      statement.bind({ ...params, $limit: wanted, $offset: skip });
      // Rows as arrays in a known column order: getAsObject decodes every column name again for each row.
      while (statement.step()) points.push(pointFrom(statement.get()));
    } finally {
      statement?.free();
      part.release();
    }
    skip = 0;
  }
  return { total, points };
}

/** The columns of a point, in the order pointFrom reads them. */
const POINT_COLUMNS = 'p.t, p."offset", p.packet_index, p.pid, p.value, s.unit, s.violation, s.severity, s.message, s.citation, s.type';

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
