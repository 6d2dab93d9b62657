/**
 * File sessions: at most one active at a time, each with its workspace (the
 * file, its hash, the current stage and the stages done). Opening a file
 * replaces the active session and starts at the first stage that cannot be
 * reused under the current compatibility key; completing a stage runs it
 * (or reads it back) and moves on; `runToReport` does every stage left.
 * Sessions are kept in the catalog; the file is recorded as a recent source.
 */
import { randomUUID } from 'node:crypto';
import { getSession, listSessions, putSession, type SessionRow } from '../store/catalog-sessions.js';
import { touchRecentSource } from '../store/catalog-recent-sources.js';
import type { Store } from '../store/store.js';
import { WORKFLOW_STAGES, type WorkflowStage } from './compatibility-key.js';
import type { FileIdentity } from './file-identity.js';
import type { FileWorkflow, IdentifyOptions, StageRunOptions } from './file-workflow.js';
import type { IngestPayload, OverallVerdict, ReportPayload, StageOutcome } from './stage-payloads.js';
import { WorkflowError } from './workflow-error.js';

/** 'interrupted': left active by a process that ended without stopping it. */
export type FileSessionStatus = 'active' | 'stopped' | 'replaced' | 'interrupted';

export interface Workspace {
  sessionId: string;
  kind: 'file';
  status: FileSessionStatus;
  path: string;
  fileHash: string;
  size: number;
  /** The stage to complete next; 'report' once everything before it is done. */
  stage: WorkflowStage;
  /** Stages done in this session, in order, and whether each was reused from the cache. */
  stagesDone: StageOutcome[];
  /** True once the report is built. */
  reportReady: boolean;
  verdict: OverallVerdict | null;
  /** Set once an ingest run exists for the file (reused or made). */
  latestIngestRunId: string | null;
  parseKey: string;
  checkKey: string;
  createdAt: string;
  updatedAt: string;
}

export class FileSessions {
  private activeId: string | null = null;
  private identity: FileIdentity | null = null;
  private report: ReportPayload | null = null;

  /** `workflow` is asked for each time: the service's follows its current rules. */
  private readonly workflowOf: () => FileWorkflow;

  constructor(
    private readonly store: Store,
    workflow: FileWorkflow | (() => FileWorkflow),
    private readonly clock: () => number = Date.now,
  ) {
    this.workflowOf = typeof workflow === 'function' ? workflow : () => workflow;
    // One process owns the data folder (its lock): a session still marked active is a previous process's.
    for (const row of listSessions(this.store.catalog.db, { kind: 'file', statuses: ['active'] })) {
      this.save({ ...(row.state as Workspace), status: 'interrupted' });
    }
  }

  private get workflow(): FileWorkflow {
    return this.workflowOf();
  }

  /** The active session's workspace, or null. */
  active(): Workspace | null {
    return this.activeId === null ? null : this.get(this.activeId);
  }

  get(id: string): Workspace | null {
    const row = getSession<Workspace>(this.store.catalog.db, id);
    return row && row.kind === 'file' ? row.state : null;
  }

  list(): Workspace[] {
    return listSessions(this.store.catalog.db, { kind: 'file' }).map((row) => row.state as Workspace);
  }

  /** The report of the active session, once built. */
  activeReport(): ReportPayload | null {
    return this.report;
  }

  /**
   * Opens a file (hashing it unless unchanged), replacing the active session.
   * With `deferNewContent`, new content's `fileHash` is '' until the first
   * stage's pass has hashed it beside its read (FileWorkflow.identify).
   */
  async open(path: string, options: IdentifyOptions = {}): Promise<Workspace> {
    const file = await this.workflow.identify(path, options);
    const previous = this.active();
    if (previous) this.save({ ...previous, status: 'replaced' });
    const now = new Date(this.clock()).toISOString();
    const ingest = this.workflow.cached<IngestPayload>(file.hash, 'ingest');
    const workspace: Workspace = {
      sessionId: randomUUID(),
      kind: 'file',
      status: 'active',
      path: file.path,
      fileHash: file.hash,
      size: file.size,
      stage: this.workflow.firstStageToRun(file.hash),
      stagesDone: [],
      reportReady: false,
      verdict: null,
      latestIngestRunId: ingest?.runId ?? null,
      parseKey: this.workflow.key.parseKey,
      checkKey: this.workflow.key.checkKey,
      createdAt: now,
      updatedAt: now,
    };
    this.activeId = workspace.sessionId;
    this.identity = file;
    this.report = null;
    touchRecentSource(this.store.catalog.db, 'file', file.path, this.clock());
    this.save(workspace);
    await this.store.saveCatalog();
    return workspace;
  }

  /** Runs the active session's current stage and moves to the next; ERR_NO_ACTIVE_SESSION without one. */
  async completeStage(options: StageRunOptions = {}): Promise<Workspace> {
    const { workspace, file } = this.requireActive();
    const { payload, ...outcome } = await this.workflow.runStage(file, workspace.stage, options);
    // A hash left pending at the open is the identity's once the stage's pass has read the file.
    const next: Workspace = { ...workspace, fileHash: file.hash, stagesDone: [...workspace.stagesDone, outcome], updatedAt: new Date(this.clock()).toISOString() };
    if (outcome.stage === 'ingest') next.latestIngestRunId = (payload as IngestPayload).runId;
    if (outcome.stage === 'report') {
      this.report = payload as ReportPayload;
      next.reportReady = true;
      next.verdict = this.report.verdict;
      next.latestIngestRunId = this.report.runId;
    } else {
      next.stage = WORKFLOW_STAGES[WORKFLOW_STAGES.indexOf(outcome.stage) + 1];
    }
    this.save(next);
    await this.store.saveCatalog();
    return next;
  }

  /** Completes every stage left, up to and including the report. */
  async runToReport(options: StageRunOptions = {}): Promise<Workspace> {
    let workspace = this.requireActive().workspace;
    // Every stage follows: an ingest that has to run takes the checks into its pass.
    while (!workspace.reportReady) workspace = await this.completeStage({ through: 'report', ...options });
    return workspace;
  }

  /** Stops the active session, kept as `status` ('replaced' when a live session takes its place); ERR_NO_ACTIVE_SESSION without one. */
  async stop(status: 'stopped' | 'replaced' = 'stopped'): Promise<Workspace> {
    const { workspace } = this.requireActive();
    const stopped: Workspace = { ...workspace, status, updatedAt: new Date(this.clock()).toISOString() };
    this.save(stopped);
    this.activeId = null;
    this.identity = null;
    this.report = null;
    await this.store.saveCatalog();
    return stopped;
  }

  private requireActive(): { workspace: Workspace; file: FileIdentity } {
    const workspace = this.active();
    if (!workspace || !this.identity) throw new WorkflowError('ERR_NO_ACTIVE_SESSION', 'no active file session: open one first');
    return { workspace, file: this.identity };
  }

  private save(workspace: Workspace): void {
    const row: SessionRow<Workspace> = {
      id: workspace.sessionId,
      kind: 'file',
      source: workspace.path,
      status: workspace.status,
      createdMs: Date.parse(workspace.createdAt),
      updatedMs: this.clock(),
      state: workspace,
    };
    putSession(this.store.catalog.db, row);
  }
}
