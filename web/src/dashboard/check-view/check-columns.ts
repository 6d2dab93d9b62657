/**
 * A check's points as the columns uPlot draws: one x column of stream times
 * and one y column per series (a PID, or a PID and point type when a PID has
 * several), typed arrays where a column is dense, so that 500,000 points
 * cost a few arrays and no object per point. Points without a stream time
 * (before the first PCR) cannot be placed and are counted apart.
 */
import type { DetailPoint } from './check-detail-wire.js';

export interface CheckSeries {
  label: string;
  pid: number;
  type: string | null;
  /** One value per row; null where the row belongs to another series (a sparse column). */
  values: Float64Array | Array<number | null>;
}

export interface CheckColumns {
  /** Stream time of each row, seconds, ascending. */
  times: Float64Array;
  /** The detail point of each row (index into the points given). */
  pointOfRow: Int32Array;
  series: CheckSeries[];
  /** Rows of the points that break a rule, ascending. */
  violationRows: Int32Array;
  /** Each row's value (NaN: the point has none; such a row is a mark, not a line). */
  rowValues: Float64Array;
  /** Points that have no stream time, so are not drawn. */
  unplaced: number;
}

/** The point fields the columns need: the REST detail points, or the benchmark's. */
export type PlotPoint = Pick<DetailPoint, 't' | 'pid' | 'value' | 'violation' | 'type'>;

export function buildCheckColumns(points: readonly PlotPoint[]): CheckColumns {
  // Two passes over the points: which have a time (and whether in order), then the columns.
  const allRows = new Int32Array(points.length);
  let placed = 0;
  let sorted = true;
  let previous = -Infinity;
  for (let i = 0; i < points.length; i++) {
    const t = points[i].t;
    if (t === null) continue;
    allRows[placed++] = i;
    if (t < previous) sorted = false;
    previous = t;
  }
  const pointOfRow = allRows.subarray(0, placed);
  // Points come in emission order, time-ordered per PID; interleaved PIDs may step back a little.
  if (!sorted) pointOfRow.sort((a, b) => (points[a].t as number) - (points[b].t as number) || a - b);

  const times = new Float64Array(placed);
  const rowValues = new Float64Array(placed);
  const seriesOfRow = new Int32Array(placed);
  const violationsFound = new Int32Array(placed);
  const keys = new Map<string, number>();
  const found: Array<{ pid: number; type: string | null }> = [];
  let violations = 0;
  let valueless = false;
  let lastPid = -1;
  let lastType: string | null = null;
  let lastIndex = -1;
  for (let row = 0; row < placed; row++) {
    const point = points[pointOfRow[row]];
    times[row] = point.t as number;
    if (point.violation) violationsFound[violations++] = row;
    if (point.value === null) {
      rowValues[row] = NaN;
      seriesOfRow[row] = -1;
      valueless = true;
      continue;
    }
    rowValues[row] = point.value;
    // Runs of one series are the rule: look the key up only when it changes.
    if (point.pid !== lastPid || point.type !== lastType) {
      const key = `${point.pid}|${point.type ?? ''}`;
      let index = keys.get(key);
      if (index === undefined) {
        index = found.length;
        keys.set(key, index);
        found.push({ pid: point.pid, type: point.type });
      }
      lastPid = point.pid;
      lastType = point.type;
      lastIndex = index;
    }
    seriesOfRow[row] = lastIndex;
  }
  const violationRows = violationsFound.slice(0, violations);

  const typesPerPid = new Map<number, number>();
  for (const { pid } of found) typesPerPid.set(pid, (typesPerPid.get(pid) ?? 0) + 1);
  const dense = found.length === 1 && !valueless;
  const series = found.map(({ pid, type }, index): CheckSeries => {
    const label = (typesPerPid.get(pid) ?? 0) > 1 && type !== null ? `PID ${pid} ${type}` : `PID ${pid}`;
    if (dense) return { label, pid, type, values: rowValues };
    const values = new Array<number | null>(placed).fill(null);
    for (let row = 0; row < placed; row++) if (seriesOfRow[row] === index) values[row] = rowValues[row];
    return { label, pid, type, values };
  });
  return { times, pointOfRow, series, violationRows, rowValues, unplaced: points.length - placed };
}
