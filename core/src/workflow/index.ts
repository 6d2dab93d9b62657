/** The workflow's public entry, `@klvscope/core/workflow` (DESIGN.md "workflow/"), apart from the engine's root entry as the store's is. */
export { hashFile, type FileHasher, type FileHashOptions } from './file-hash.js';
export { identifyFile, type FileIdentity, type FileIdentityOptions } from './file-identity.js';
export { JobQueue, type JobContext, type JobError, type JobKind, type JobProgress, type JobQueueOptions, type JobStatus, type JobView, type JobWork } from './job-queue.js';
export { WorkflowError, type WorkflowErrorCode } from './workflow-error.js';
export { canonicalJson } from './canonical-json.js';
export { PARSER_VERSION, WORKFLOW_STAGES, compatibilityKey, stageKey, type CheckIdentity, type CompatibilityKey, type WorkflowStage } from './compatibility-key.js';
export { FileWorkflow, type FileSourceOpener, type FileWorkflowOptions, type IdentifyOptions, type ProgressPhase, type StageRunOptions } from './file-workflow.js';
export { buildReport, REPORT_TOP_VIOLATIONS } from './report-builder.js';
export { groupReportProblems, REPORT_PROBLEMS, REPORT_PROBLEM_KINDS, type CheckViolations, type ReportProblem, type ReportProblemKind } from './report-problems.js';
export * from './stage-payloads.js';
export { compareReports, type ComparedCheckSide, type ComparedFigure, type ComparedFile, type ComparedKlvSide, type ComparedPidSide, type ComparedRow, type ReportComparison } from './report-comparison.js';
export { FileSessions, type FileSessionStatus, type Workspace } from './file-sessions.js';
export { archiveEntryDetail, deleteFromArchive, listArchive, type ArchiveEntryDetail } from './analysis-archive.js';
