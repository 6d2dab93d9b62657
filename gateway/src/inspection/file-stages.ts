/**
 * The workflow stages of one file up to a given one (`analyze`, `ingest` or
 * `process`), each reused from the cache when it can be and run otherwise,
 * in order: what the analysis, ingest and process jobs do, and what the
 * synchronous endpoints wait for. A process therefore never meets a file
 * without a completed ingest: the stages it needs run first.
 *
 * Progress counts the bytes of every file read the work makes (hashing an
 * unknown or changed file, `analyze`, `ingest`; `process` reads stored
 * observations, not the file): `bytesTotal` is known once the file is
 * identified, and `bytesDone` only grows.
 */
import {
  WORKFLOW_STAGES,
  type AnalyzePayload,
  type FileWorkflow,
  type IngestPayload,
  type JobContext,
  type ProcessPayload,
  type ProgressPhase,
  type StageOutcome,
} from '@klvscope/core/workflow';
import type { InspectionDeps } from './inspection-deps.js';
import { runQueued } from './queued-work.js';

export type LastStage = 'analyze' | 'ingest' | 'process';

interface StagePayloads {
  analyze: AnalyzePayload;
  ingest: IngestPayload;
  process: ProcessPayload;
}

type StagesThrough<S extends LastStage> = S extends 'analyze' ? 'analyze' : S extends 'ingest' ? 'analyze' | 'ingest' : LastStage;

export type FileStages<S extends LastStage> = {
  fileHash: string;
  /** The file as identified (links followed). */
  path: string;
  /** How each stage was obtained: reused from the cache or run now. */
  stages: StageOutcome[];
} & Pick<StagePayloads, StagesThrough<S>>;

export interface FileStagesOptions {
  signal?: AbortSignal;
  progress?: (bytesDone: number, bytesTotal: number | null) => void;
}

/** The job kind of the work that ends with each stage. */
export const JOB_KIND = { analyze: 'analysis', ingest: 'ingest', process: 'process' } as const;

/** A job's signal and progress, as the options of its stages. */
export function stageOptionsOf(context: JobContext): FileStagesOptions {
  return { signal: context.signal, progress: (done, total) => context.progress(done, total) };
}

/** The stages up to `last`, run here (the caller is a job). */
export async function runStagesUpTo<S extends LastStage>(workflow: FileWorkflow, path: string, last: S, options: FileStagesOptions = {}): Promise<FileStages<S>> {
  const meter = new ReadMeter(options.progress);
  // New content is hashed beside the stages' pass over it (FileWorkflow.identify).
  const file = await workflow.identify(path, { signal: options.signal, onProgress: meter.onProgress, deferNewContent: true });
  const stages = stagesThrough(last);
  meter.plan(workflow.fileReadsThrough(file.hash, last) * file.size);
  const outcomes: StageOutcome[] = [];
  const payloads: Partial<StagePayloads> = {};
  for (const stage of stages) {
    const { payload, ...outcome } = await workflow.runStage(file, stage, { signal: options.signal, onProgress: meter.onProgress, through: last });
    outcomes.push(outcome);
    Object.assign(payloads, { [stage]: payload });
  }
  meter.finish();
  return { fileHash: file.hash, path: file.path, stages: outcomes, ...payloads } as FileStages<S>;
}

/**
 * The stages up to `last` for a request: answered at once when all of them
 * are cached (no file is read), else run as a job of the queue, waited for.
 * Hashing a file whose content may be known happens in the request; new
 * content (no known file has its size) is hashed in the job, beside its pass.
 */
export async function stagesUpTo<S extends LastStage>(deps: Pick<InspectionDeps, 'rules' | 'jobs'>, path: string, last: S): Promise<FileStages<S>> {
  const workflow = deps.rules.workflow();
  const file = await workflow.identify(path, { deferNewContent: true });
  const reusable = workflow.reusablePayloads(file.hash);
  const stages = stagesThrough(last);
  // Everything cached: answered from the payloads at hand, without the queue and without asking the catalog again.
  if (stages.every((stage) => reusable[stage] !== undefined)) {
    const outcomes: StageOutcome[] = stages.map((stage) => ({ stage, reused: true, elapsedMs: 0 }));
    return { fileHash: file.hash, path: file.path, stages: outcomes, ...reusable } as FileStages<S>;
  }
  return runQueued(deps.jobs, JOB_KIND[last], path, (context) => runStagesUpTo(workflow, path, last, stageOptionsOf(context)));
}

function stagesThrough(last: LastStage): LastStage[] {
  return WORKFLOW_STAGES.slice(0, WORKFLOW_STAGES.indexOf(last) + 1) as LastStage[];
}

/** Adds up the bytes of successive file reads, each reported from 0 by its phase. */
class ReadMeter {
  /** Bytes of the reads finished before the current one. */
  private before = 0;
  private phase: ProgressPhase | null = null;
  private current = 0;
  private currentTotal = 0;
  private total: number | null = null;

  constructor(private readonly report: ((bytesDone: number, bytesTotal: number | null) => void) | undefined) {}

  readonly onProgress = (bytesDone: number, bytesTotal: number, phase: ProgressPhase): void => {
    // `process` alone counts stored observations, not bytes of the file: the job's progress is of its reads.
    if (phase === 'process') return;
    if (phase !== this.phase) this.closeRead();
    this.phase = phase;
    this.current = bytesDone;
    this.currentTotal = bytesTotal;
    this.report?.(this.before + bytesDone, this.total ?? (phase === 'hash' ? bytesTotal : null));
  };

  /** Once the file is identified: the bytes the stages still to run will read. */
  plan(bytesToRead: number): void {
    this.closeRead();
    this.total = this.before + bytesToRead;
    this.report?.(this.before, this.total);
  }

  finish(): void {
    this.closeRead();
    this.report?.(this.before, Math.max(this.before, this.total ?? 0));
  }

  private closeRead(): void {
    if (this.phase !== null) this.before += Math.max(this.current, this.currentTotal);
    this.phase = null;
    this.current = 0;
    this.currentTotal = 0;
  }
}
