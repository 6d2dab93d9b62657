/**
 * The points of the `process` stage, kept with the run whose observations
 * they come from (stored-run.ts): a detail endpoint pages through them
 * without re-running anything. A process run's points are stored under the
 * compatibility key of its checks and rules, in parts of their own, so
 * results under other rules do not mix.
 */
import type { Database, Statement } from 'sql.js';
import type { Point, PointPosition } from '../kernel/check-point.js';
import type { Severity } from '../kernel/observations.js';
import type { PartHandle } from './datasets/dataset-parts.js';
import { PointBlockBuilder, unpackPointBlock, type PackedPoint } from './point-block-codec.js';
import type { Migration } from './schema-migrations.js';
import { inTransaction } from './sql-transaction.js';
import { StoreError } from './store-error.js';

/**
 * The points of one process run (one check key) are stored in parts of their
 * own (stored-run.ts), so the key is the parts', not a column. What a point
 * shares with the others of its series (check, violation, severity, message,
 * unit, citation, type: most points of a check repeat a few of them) is
 * stored once per part in `point_series`; the points themselves in blocks of
 * one check's consecutive points, packed by column (point-block-codec.ts):
 * half a million points of a 2 GB recording cost half a million inserts as
 * rows, a hundred or so as blocks.
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

/** Format 2: a block per check's run of points; `first_n` is the check's `n` of its first point. */
const POINT_BLOCKS_SCHEMA = `
  DROP TABLE check_points;
  CREATE TABLE point_blocks (
    check_no INTEGER NOT NULL,
    first_n INTEGER NOT NULL,
    points INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (check_no, first_n)
  ) WITHOUT ROWID`;

export const CHECK_POINTS_MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'check points', up: (db) => db.exec(CHECK_POINTS_SCHEMA) },
  { version: 2, name: 'point blocks', up: (db) => db.exec(POINT_BLOCKS_SCHEMA) },
];

/** Points per block (and per transaction of the old row format's writers: the name stays for the run's options). */
export const POINTS_PER_TRANSACTION = 4096;

export interface CheckPointWriter {
  /** Stores one point of a check (a PointSink). */
  write(point: Point, checkId: string): void;
  /** Stores the blocks still gathering; returns points stored per check (all parts so far). */
  finish(): Record<string, number>;
  /** What this part holds (after finish()). */
  summary(): PointPartSummary;
  /** Drops the points still gathering (the blocks stored stay: the owner drops the part). */
  abort(): void;
}

/** What a point shares with its series. */
interface SeriesOf {
  readonly violation: boolean;
  readonly severity: string;
  readonly message: string;
  readonly unit: string | null;
  readonly citation: string | null;
  readonly type: string | null;
}

function sameSeries(series: SeriesOf, point: Point): boolean {
  return (
    series.message === point.message &&
    series.violation === point.violation &&
    series.severity === point.severity &&
    series.unit === point.unit &&
    series.citation === point.citation &&
    series.type === (point.type ?? null)
  );
}

/** The text of what a point shares with its series, as one key (a character no such text holds between the parts). */
function seriesKey(point: Point, checkId: string): string {
  return `${checkId}\u0000${point.violation ? 1 : 0}\u0000${point.severity}\u0000${point.message}\u0000${point.unit ?? '\u0001'}\u0000${point.citation ?? '\u0001'}\u0000${point.type ?? '\u0001'}`;
}

/** A check's state in the part being written. */
interface CheckState {
  readonly checkNo: number;
  readonly block: PointBlockBuilder;
  /** The check's `n` of the block's first point. */
  firstN: number;
  /**
   * The numbers of the series its points used lately, the latest first: a
   * check's consecutive points mostly share one, or take turns among a few
   * (one per PID), which are found here without making their key.
   */
  readonly recent: number[];
}

/** Series a check's recent list holds. */
const RECENT_SERIES = 8;

/**
 * Writes points into one part: `n` counts each check's points on from
 * `countsBefore` (what the parts before hold), so it runs on across parts.
 * A block holds `pointsPerBlock` points at most, and is stored when full or
 * at finish(): a part ends between two calls of write() with every full
 * block stored.
 */
export function createCheckPointWriter(db: Database, countsBefore: Readonly<Record<string, number>> = {}, pointsPerBlock = POINTS_PER_TRANSACTION): CheckPointWriter {
  const insert: Statement = db.prepare('INSERT INTO point_blocks (check_no, first_n, points, data) VALUES (?, ?, ?, ?)');
  const insertSeries: Statement = db.prepare(
    'INSERT INTO point_series (series, check_no, check_id, violation, severity, message, unit, citation, type) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const counts: Record<string, number> = { ...countsBefore };
  const checks = new Map<string, CheckState>();
  const seriesNumbers = new Map<string, number>();
  const seriesList: (SeriesOf & { checkId: string })[] = [];
  const pointsOfSeries: number[] = [];
  let closed = false;

  const store = (state: CheckState): void => {
    const points = state.block.count;
    if (points === 0) return;
    insert.run([state.checkNo, state.firstN, points, state.block.takeForStatement()]);
    state.firstN += points;
  };

  const seriesOf = (state: CheckState, point: Point, checkId: string): number => {
    const recent = state.recent;
    for (let i = 0; i < recent.length; i++) {
      const series = recent[i];
      if (!sameSeries(seriesList[series], point)) continue;
      if (i > 0) {
        recent.copyWithin(1, 0, i);
        recent[0] = series;
      }
      return series;
    }
    const key = seriesKey(point, checkId);
    let series = seriesNumbers.get(key);
    if (series === undefined) {
      seriesNumbers.set(key, (series = seriesNumbers.size));
      const shared = { checkId, violation: point.violation, severity: point.severity, message: point.message, unit: point.unit, citation: point.citation, type: point.type ?? null };
      seriesList.push(shared);
      pointsOfSeries.push(0);
      insertSeries.run([series, state.checkNo, checkId, point.violation ? 1 : 0, point.severity, point.message, point.unit, point.citation, point.type ?? null]);
    }
    if (recent.length < RECENT_SERIES) recent.push(series);
    recent.copyWithin(1, 0, recent.length - 1);
    recent[0] = series;
    return series;
  };

  return {
    write(point, checkId) {
      let state = checks.get(checkId);
      if (state === undefined) {
        state = { checkNo: checks.size, block: new PointBlockBuilder(pointsPerBlock), firstN: counts[checkId] ?? 0, recent: [] };
        checks.set(checkId, state);
      }
      const series = seriesOf(state, point, checkId);
      pointsOfSeries[series]++;
      state.block.add(point.t, point.offset, point.packetIndex, point.pid, point.value, series);
      if (state.block.full) store(state);
    },
    finish() {
      if (!closed) {
        inTransaction(db, () => {
          for (const state of checks.values()) store(state);
        });
      }
      close();
      // Every block stored: a check's next `n` is how many points it has, in this part and those before.
      for (const [checkId, state] of checks) counts[checkId] = state.firstN;
      return { ...counts };
    },
    summary() {
      const summary: Record<string, [string | null, number, number][]> = {};
      seriesList.forEach((series, index) => {
        const groups = (summary[series.checkId] ??= []);
        const violation = series.violation ? 1 : 0;
        const group = groups.find(([type, v]) => type === series.type && v === violation);
        if (group) group[2] += pointsOfSeries[index];
        else groups.push([series.type, violation, pointsOfSeries[index]]);
      });
      return summary;
    },
    abort() {
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
  for (const [type, violation, n] of summary[checkId] ?? []) if (queryTakes(query, type, violation === 1)) count += n;
  return count;
}

/** A part's series, by number, as points carry them. */
function seriesTable(db: Database): Map<number, Omit<Point, keyof PointPosition | 'value'>> {
  const table = new Map<number, Omit<Point, keyof PointPosition | 'value'>>();
  const statement = db.prepare('SELECT series, unit, violation, severity, message, citation, type FROM point_series');
  try {
    while (statement.step()) {
      const [series, unit, violation, severity, message, citation, type] = statement.get();
      const shared = { unit: unit as string | null, violation: violation === 1, severity: severity as Severity, message: message as string, citation: citation as string | null };
      table.set(series as number, type === null ? shared : { ...shared, type: type as string });
    }
  } finally {
    statement.free();
  }
  return table;
}

/** Whether points of this type and violation are ones the query asks for. */
function queryTakes(query: CheckPointQuery, type: string | null | undefined, violation: boolean): boolean {
  if (query.violationsOnly === true && !violation) return false;
  if (query.types && query.types.length > 0 && (type === null || type === undefined || !query.types.includes(type))) return false;
  return true;
}

/**
 * One page of a check's stored points, in emission order: the total from the
 * parts' summaries, the points from the part where the page starts on, block
 * after block (a block wholly before the page is skipped unread when no
 * filter applies). A negative limit is no limit.
 */
export function readCheckPoints(source: PointParts, checkId: string, query: CheckPointQuery): CheckPointPage {
  const filtered = query.violationsOnly === true || (query.types !== undefined && query.types.length > 0);
  const inParts = source.parts.map((summary) => matching(summary, checkId, query));
  const total = inParts.reduce((sum, n) => sum + n, 0);
  const points: Point[] = [];
  let skip = query.offset;
  for (let index = 0; index < inParts.length; index++) {
    if (query.limit >= 0 && points.length === query.limit) break;
    if (skip >= inParts[index]) {
      skip -= inParts[index];
      continue;
    }
    const part = source.open(index);
    let statement: Statement | undefined;
    try {
      const series = seriesTable(part.db);
      statement = preparePointBlocks(part.db, checkId);
      while (statement.step() && !(query.limit >= 0 && points.length === query.limit)) {
        const [count, data] = statement.get() as [number, Uint8Array];
        if (!filtered && skip >= count) {
          skip -= count;
          continue;
        }
        for (const packed of unpackPointBlock(data, count)) {
          const shared = series.get(packed.series);
          if (shared === undefined || (filtered && !queryTakes(query, shared.type, shared.violation))) continue;
          if (skip > 0) {
            skip--;
            continue;
          }
          points.push(pointFrom(packed, shared));
          if (query.limit >= 0 && points.length === query.limit) break;
        }
      }
    } finally {
      statement?.free();
      part.release();
    }
    skip = 0;
  }
  return { total, points };
}

function preparePointBlocks(db: Database, checkId: string): Statement {
  try {
    return db.prepare(
      'SELECT points, data FROM point_blocks WHERE check_no = (SELECT check_no FROM point_series WHERE check_id = $check LIMIT 1) ORDER BY first_n',
      { $check: checkId },
    );
  } catch (cause) {
    // A part of format 1 (a point per row, before point blocks) has no point_blocks table.
    throw new StoreError('ERR_STORE_CORRUPT', 'these points were stored by an older klvscope (format 1, a point per row): run the process stage again to store them anew', {}, { cause });
  }
}

/** A point in the property order of makePoint. */
function pointFrom(packed: PackedPoint, shared: Omit<Point, keyof PointPosition | 'value'>): Point {
  const point: Point = {
    t: packed.t,
    offset: packed.offset,
    packetIndex: packed.packetIndex,
    pid: packed.pid,
    value: packed.value,
    unit: shared.unit,
    violation: shared.violation,
    severity: shared.severity,
    message: shared.message,
    citation: shared.citation,
  };
  return shared.type === undefined ? point : { ...point, type: shared.type };
}
