/** The checks as `klvscope inspect` prints them: a table of verdicts, and one check's points as text, JSON or CSV. */
import type { CheckResult, Point } from '@klvscope/core';

export type PointFormat = 'text' | 'json' | 'csv';

const round = (value: number): string => (Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 1 ? value.toFixed(2) : value.toPrecision(3));

/** What the table shows of a check's result (a CheckResult, or a check processed by the workflow). */
export type CheckRow = Pick<CheckResult, 'checkId' | 'status' | 'summary'>;

function valueRange(result: CheckRow): string {
  const v = result.summary.value;
  if (!v) return '-';
  const unit = v.unit ? ` ${v.unit}` : '';
  const [min, max] = [round(v.min), round(v.max)];
  return min === max ? `${max}${unit}` : `${min} .. ${max}${unit}`;
}

function violations(result: CheckRow): string {
  const s = result.summary.violationsBySeverity;
  if (result.summary.violations === 0) return '0';
  const parts = [s.error ? `${s.error} error` : '', s.warning ? `${s.warning} warn` : '', s.info ? `${s.info} info` : ''].filter(Boolean);
  return parts.join(', ');
}

export function formatCheckTable(results: readonly CheckRow[]): string {
  if (results.length === 0) return 'Checks      none loaded';
  const rows = [['Check', 'Verdict', 'Violations', 'Values', 'Reason']];
  for (const r of results) {
    const verdict = r.status === 'failed' ? 'FAILED' : r.summary.verdict;
    rows.push([r.checkId, verdict, violations(r), valueRange(r), r.summary.reason]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  return rows.map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]))).join('  ').trimEnd()).join('\n');
}

const csvCell = (value: Point[keyof Point]): string => {
  const text = value === null || value === undefined ? '' : `${value}`;
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

const COLUMNS: ReadonlyArray<keyof Point> = ['t', 'offset', 'packetIndex', 'pid', 'value', 'unit', 'violation', 'severity', 'type', 'message', 'citation'];

export function formatPoints(points: readonly Point[], format: PointFormat): string {
  if (format === 'json') return JSON.stringify(points, null, 2);
  if (format === 'csv') return [COLUMNS.join(','), ...points.map((p) => COLUMNS.map((c) => csvCell(p[c])).join(','))].join('\n');
  if (points.length === 0) return 'no points';
  return points
    .map((p) => {
      const t = p.t === null ? '      -' : `${p.t.toFixed(3).padStart(8)}s`;
      const pid = p.pid < 0 ? '     -' : `0x${p.pid.toString(16).toUpperCase().padStart(4, '0')}`;
      const value = p.value === null ? '' : ` ${round(p.value)}${p.unit ? ` ${p.unit}` : ''}`;
      const flag = p.violation ? p.severity.toUpperCase() : 'ok';
      return `${t}  packet ${String(p.packetIndex).padStart(9)}  ${pid}  ${flag.padEnd(7)}${value}  ${p.message}`;
    })
    .join('\n');
}
