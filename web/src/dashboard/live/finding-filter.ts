/**
 * Which of the live session's finding records the list shows: those of one
 * check (or every check) at a severity or worse. The order of severities is
 * the service's (`minSeverity` of the live channel's findings subscription).
 */
import type { LiveFinding } from './live-records.js';

export type Severity = LiveFinding['severity'];

export const SEVERITIES: readonly Severity[] = ['info', 'warning', 'error'];

export interface FindingFilter {
  /** '' for every check. */
  checkId: string;
  minSeverity: Severity;
}

export const NO_FILTER: FindingFilter = { checkId: '', minSeverity: 'info' };

export function filterFindings(findings: readonly LiveFinding[], filter: FindingFilter): LiveFinding[] {
  const minimum = SEVERITIES.indexOf(filter.minSeverity);
  return findings.filter((finding) => (filter.checkId === '' || finding.checkId === filter.checkId) && SEVERITIES.indexOf(finding.severity) >= minimum);
}
