/**
 * The `report` stage: an overall verdict, each check's verdict, and the most
 * severe violations across the checks, from the analyze and process payloads.
 */
import { SEVERITY_RANK } from '../kernel/observations.js';
import { groupReportProblems } from './report-problems.js';
import type { AnalyzePayload, OverallVerdict, ProcessPayload, ReportPayload } from './stage-payloads.js';

/** Violations listed in a report, across all checks. */
export const REPORT_TOP_VIOLATIONS = 50;

export function buildReport(file: { hash: string; path: string }, analyze: AnalyzePayload, process: ProcessPayload): ReportPayload {
  const verdicts = new Set(process.checks.map((check) => check.summary.verdict));
  const verdict: OverallVerdict = verdicts.has('fail') ? 'fail' : verdicts.has('warn') ? 'warn' : 'pass';
  const topViolations = process.checks
    .flatMap((check) => check.topViolations.map((point) => ({ ...point, checkId: check.checkId })))
    // Most severe first; then in stream order, so a report reads from the start of the file.
    .sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.offset - b.offset)
    .slice(0, REPORT_TOP_VIOLATIONS);
  return {
    fileHash: file.hash,
    path: file.path,
    runId: process.runId,
    verdict,
    inventory: analyze.inventory,
    klv: analyze.klv,
    // An analyze payload cached before video details were read has none.
    video: analyze.video ?? [],
    checks: process.checks.map(({ topViolations: _top, rules: _rules, ...check }) => check),
    topViolations,
    ...groupReportProblems(process.checks.map((check) => ({ checkId: check.checkId, violations: check.summary.violations, kept: check.topViolations }))),
  };
}
