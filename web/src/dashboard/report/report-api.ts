/**
 * A file's report as the inspection service gives it: the `report` of its
 * analysis-archive entry (`POST /analysis/archive/lookup` with the file's
 * path), present when every stage it needs is cached under the current
 * rules. The same report `POST /automation/file-session/inspect` answers,
 * read without opening a session.
 */
import type { CheckStatus, CheckSummary, Inventory, KlvPidSummary, Point, ReportProblem, ReportProblemKind, VideoStreamDetails } from '@klvscope/core/browser';
import { ApiError, type ApiClient } from '../api-client.js';

/** One check's outcome in a report (its points are the detail endpoint's). */
export interface ReportCheck {
  checkId: string;
  version: string;
  title: string;
  status: CheckStatus;
  summary: CheckSummary;
  pointsStored: number;
  error: { message: string } | null;
}

export interface FileReport {
  fileHash: string;
  path: string;
  runId: string;
  verdict: 'pass' | 'warn' | 'fail';
  inventory: Inventory;
  klv: KlvPidSummary[];
  checks: ReportCheck[];
  /** The most severe violations across the checks, with the check that found each. */
  topViolations: Array<Point & { checkId: string }>;
  /** The violations the checks kept, one per PID and packet, naming every check that saw it. */
  problems: ReportProblem[];
  /** The problems of one PID seen by the same checks, worst first, each as one line. */
  problemKinds: ReportProblemKind[];
  /** One entry per video PID; absent from a report stored before video details (a service of an older version). */
  video?: VideoStreamDetails[];
}

/** The report of the file's current content under the current rules; null when it has not been inspected under them. */
export async function loadReport(api: ApiClient, filePath: string): Promise<FileReport | null> {
  try {
    const entry = await api.post<{ report: FileReport | null }>('/analysis/archive/lookup', { filePath });
    return entry.report;
  } catch (error) {
    // Never analysed: no archive entry. Any other error (outside the roots, no such file) is the page's to show.
    if (error instanceof ApiError && error.code === 'ERR_ARCHIVE_ENTRY_NOT_FOUND') return null;
    throw error;
  }
}
