/**
 * The report's problems: one cause seen by several checks counted once.
 * A PCR 534 ms after the previous one is a violation of mpegts-pcr-intervals,
 * of mpegts-pcr-monotonicity and twice of mpegts-errors (TR 101 290 2.3a and
 * 2.3b judge the same gap), all at the same packet. Violations of the same
 * PID at the same packet are one problem naming every check that saw it;
 * problems of the same PID seen by the same checks are one kind, which the
 * report opens with as one line a person can act on. A kind is keyed by its
 * PID and leading check and point type, not by the whole set of checks: the
 * checks keep different numbers of violations, so past one's cap the same
 * cause is seen by fewer of them.
 *
 * Made from the violations each check keeps for the report (up to
 * TOP_VIOLATIONS_PER_CHECK, the first most severe): where a check holds more
 * than it kept, a kind's count is a lower bound and says so.
 */
import { SEVERITY_RANK, type Severity } from '../kernel/observations.js';
import type { Point } from '../kernel/check-point.js';

/** Problems listed in a report, most severe first. */
export const REPORT_PROBLEMS = 50;
/** Kinds of problem the report opens with. */
export const REPORT_PROBLEM_KINDS = 10;

export interface ReportProblem {
  pid: number;
  t: number | null;
  offset: number;
  packetIndex: number;
  severity: Severity;
  /** Every check that saw it, the one whose message leads first. */
  checkIds: string[];
  /** The leading check's message and point type. */
  message: string;
  type: string | null;
  value: number | null;
  unit: string | null;
  /** Violations grouped into it (a check may see one cause twice). */
  violations: number;
}

export interface ReportProblemKind {
  /** One line: the worst occurrence's message, how many times, from when. */
  line: string;
  pid: number;
  severity: Severity;
  checkIds: string[];
  /** Occurrences among the violations the leading check kept. */
  count: number;
  /** True when the leading check holds more violations than it kept: `count` is at least that. */
  countIsLowerBound: boolean;
  /** Stream time of the first occurrence, null when none has one. */
  firstT: number | null;
  worst: { message: string; value: number | null; unit: string | null; t: number | null };
}

export interface CheckViolations {
  checkId: string;
  /** Violations the check counted. */
  violations: number;
  /** The violations it kept for the report. */
  kept: readonly Point[];
}

/** Groups the checks' kept violations: by PID and packet into problems, by PID and checks into kinds. */
export function groupReportProblems(checks: readonly CheckViolations[]): { problems: ReportProblem[]; problemKinds: ReportProblemKind[] } {
  const order = new Map(checks.map((check, index) => [check.checkId, index]));
  const byPlace = new Map<string, Array<Point & { checkId: string }>>();
  for (const check of checks) {
    for (const point of check.kept) {
      const key = `${point.pid}|${point.offset}`;
      let found = byPlace.get(key);
      if (!found) byPlace.set(key, (found = []));
      found.push({ ...point, checkId: check.checkId });
    }
  }
  const problems = [...byPlace.values()].map((points) => problemOf(points, order));
  problems.sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.offset - b.offset);

  const capped = new Set(checks.filter((check) => check.violations > check.kept.length).map((check) => check.checkId));
  const byKind = new Map<string, ReportProblem[]>();
  for (const problem of problems) {
    const key = `${problem.pid}|${problem.checkIds[0]}|${problem.type ?? ''}`;
    let found = byKind.get(key);
    if (!found) byKind.set(key, (found = []));
    found.push(problem);
  }
  const problemKinds = [...byKind.values()].map((occurrences) => kindOf(occurrences, capped));
  problemKinds.sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || b.count - a.count || (a.firstT ?? -1) - (b.firstT ?? -1));
  return { problems: problems.slice(0, REPORT_PROBLEMS), problemKinds: problemKinds.slice(0, REPORT_PROBLEM_KINDS) };
}

function problemOf(points: Array<Point & { checkId: string }>, order: ReadonlyMap<string, number>): ReportProblem {
  const perCheck = new Map<string, number>();
  for (const point of points) perCheck.set(point.checkId, (perCheck.get(point.checkId) ?? 0) + 1);
  // A check that saw the cause once names it more precisely than one that saw it as several errors
  // (mpegts-errors restates a PCR gap as 2.3a and 2.3b); then the service's order of the checks.
  const checkIds = [...perCheck.keys()].sort((a, b) => (perCheck.get(a) ?? 0) - (perCheck.get(b) ?? 0) || (order.get(a) ?? 0) - (order.get(b) ?? 0));
  const lead = points.find((point) => point.checkId === checkIds[0]) as Point;
  const severity = points.reduce<Severity>((worst, point) => (SEVERITY_RANK[point.severity] > SEVERITY_RANK[worst] ? point.severity : worst), 'info');
  return {
    pid: lead.pid,
    t: lead.t,
    offset: lead.offset,
    packetIndex: lead.packetIndex,
    severity,
    checkIds,
    message: lead.message,
    type: lead.type ?? null,
    value: lead.value,
    unit: lead.unit,
    violations: points.length,
  };
}

function kindOf(occurrences: ReportProblem[], capped: ReadonlySet<string>): ReportProblemKind {
  const first = occurrences.reduce((earliest, problem) => (problem.offset < earliest.offset ? problem : earliest));
  const worst = occurrences.reduce((most, problem) => (Math.abs(problem.value ?? 0) > Math.abs(most.value ?? 0) ? problem : most));
  const countIsLowerBound = capped.has(first.checkIds[0]);
  const checkIds = [...new Set(occurrences.flatMap((problem) => problem.checkIds))];
  const count = occurrences.length;
  const times = `${countIsLowerBound ? 'at least ' : ''}${count} ${count === 1 ? 'time' : 'times'}`;
  const from = first.t === null ? 'before the first PCR' : `from ${first.t.toFixed(3)} s`;
  return {
    line: `${worst.message}${count > 1 ? ' (the worst)' : ''}: ${times}, ${from}`,
    pid: first.pid,
    severity: first.severity,
    checkIds,
    count,
    countIsLowerBound,
    firstT: first.t,
    worst: { message: worst.message, value: worst.value, unit: worst.unit, t: worst.t },
  };
}
