/**
 * What each workflow stage produces and caches (catalog `stage_payloads`),
 * and the report built from them.
 */
import type { ReportProblem, ReportProblemKind } from './report-problems.js';
import type { CheckResult } from '../kernel/check-run.js';
import type { Point } from '../kernel/check-point.js';
import type { CompatibilityKey, WorkflowStage } from './compatibility-key.js';
import type { Inventory } from '../ts/inventory.js';
import type { KlvPidSummary } from '../klv/klv-summary.js';
import type { VideoStreamDetails } from '../ts/video-details.js';
import type { ComparableReport, OverallVerdict } from './report-comparison.js';

/** `analyze`: what the file holds, from one demultiplexing pass. */
export interface AnalyzePayload {
  inventory: Inventory;
  klv: KlvPidSummary[];
  /** Per video PID: profile, level, size, frame rate, picture types and GOP structure (video-details.ts). */
  video: VideoStreamDetails[];
  /** Wall time of the pass, ms. */
  elapsedMs: number;
}

/** `ingest`: the stored run (its rows are in the run's database). */
export interface IngestPayload {
  runId: string;
  /** Rows stored per observation kind. */
  counts: Record<string, number>;
  bytes: number;
  elapsedMs: number;
}

/** One check's outcome in `process`; its points are in the run database under the check key. */
export interface ProcessedCheck extends Pick<CheckResult, 'checkId' | 'version' | 'title' | 'rules' | 'status' | 'summary'> {
  /** Points stored for the check (every point it emitted). */
  pointsStored: number;
  /** The first violations, most severe first (up to TOP_VIOLATIONS_PER_CHECK). */
  topViolations: Point[];
  error: { message: string } | null;
}

/** `process`: the checks run over the stored observations of an ingest run. */
export interface ProcessPayload {
  runId: string;
  checkKey: string;
  checks: ProcessedCheck[];
  observations: number;
  elapsedMs: number;
}

export type { OverallVerdict };

/** `report`: built from the analyze and process payloads (cheap, so not cached apart); its file, verdict, inventory and KLV as a comparison reads them. */
export interface ReportPayload extends ComparableReport {
  checks: Array<Omit<ProcessedCheck, 'topViolations' | 'rules'>>;
  /** The most severe violations across the checks, with the check that found each. */
  topViolations: Array<Point & { checkId: string }>;
  /** The same violations (all the checks kept) grouped: one per PID and packet, naming every check that saw it (report-problems.ts). */
  problems: ReportProblem[];
  /** The problems of the same PID seen by the same checks, worst first, each as one line. */
  problemKinds: ReportProblemKind[];
  /** The analyze stage's video details, one per video PID (additive). */
  video: VideoStreamDetails[];
}

/** How a stage was obtained in one workflow run. */
export interface StageOutcome {
  stage: WorkflowStage;
  reused: boolean;
  elapsedMs: number;
}

export interface InspectionResult {
  fileHash: string;
  path: string;
  key: CompatibilityKey;
  latestIngestRunId: string;
  stages: StageOutcome[];
  analyze: AnalyzePayload;
  ingest: IngestPayload;
  process: ProcessPayload;
  report: ReportPayload;
}

/** Violations kept per check in the process payload. */
export const TOP_VIOLATIONS_PER_CHECK = 20;
