/**
 * The file workflow: `analyze`, `ingest`, `process`, `report` over one
 * store. Each stage's payload is cached under the compatibility key
 * (compatibility-key.ts), so a stage already done for an unchanged file
 * with the same parser (and, from `process` on, the same checks and rules)
 * is read back instead of run again. `process` re-runs the checks over the
 * observations stored by the latest completed ingest run, not over the file.
 * When a caller will run `process` right after `ingest` (`through`), the
 * checks consume the observations as ingest makes them, in one pass over the
 * file, and store the same points `process` would.
 *
 * Saves: the catalog after each stage, a run's parts as they fill
 * (stored-run.ts); a run is marked completed only after all its parts are on
 * disk, so a crash or a cancel never leaves a completed run with missing rows.
 */
import type { Database } from 'sql.js';
import type { Point } from '../kernel/check-point.js';
import type { PointSink } from '../kernel/check-run.js';
import type { SessionResult } from '../kernel/check-session.js';
import { parseCheckRules } from '../kernel/check-rules.js';
import type { AnyCheck } from '../kernel/define-check.js';
import type { Demuxer, DemuxerFactory } from '../kernel/demuxer-factory.js';
import { OBSERVATION_KINDS } from '../kernel/observation-kinds.js';
import type { Observation, ObservationKind, ObservationSink } from '../kernel/observations.js';
import { runObservations, runPipeline, type ByteSource, type PipelineResult, type SourceChunk } from '../kernel/pipeline.js';
import { KlvSummaryBuilder } from '../klv/klv-summary.js';
import { createKlvAwareTsDemuxer } from '../klv/st1402-demuxer.js';
import { InventoryBuilder } from '../ts/inventory.js';
import type { PesPayloadConsumer } from '../ts/pes-payload-consumer.js';
import { VideoDetailsBuilder } from '../ts/video-details.js';
import { CACHED_STAGES, getStagePayload, putStagePayload, stagePayloadVersion, type CachedStage } from '../store/catalog-stages.js';
import { createIngestRun, deleteIngestRun, finishIngestRun, getIngestRun, latestCompletedIngestRun, setIngestRunHash, type IngestRunRow } from '../store/catalog-ingest-runs.js';
import type { DatabaseLease } from '../store/database-cache.js';
import type { Store } from '../store/store.js';
import type { StoredRun } from '../store/stored-run.js';
import { createRunObservationWriter, type RunObservationWriter } from '../store/run-observation-writer.js';
import { createRunPointWriter } from '../store/run-point-writer.js';
import { WORKFLOW_STAGES, compatibilityKey, stageKey, type CompatibilityKey, type WorkflowStage } from './compatibility-key.js';
import { HashWhileReading } from './hash-while-reading.js';
import { identifyFile, recordFileHash, type FileIdentity } from './file-identity.js';
import type { AnalyzePayload, IngestPayload, InspectionResult, ProcessPayload, ProcessedCheck, ReportPayload, StageOutcome } from './stage-payloads.js';
import { TOP_VIOLATIONS_PER_CHECK } from './stage-payloads.js';
import { buildReport } from './report-builder.js';
import { MostSevere } from './most-severe.js';
import { WorkflowError } from './workflow-error.js';

/** Opens a file as a byte source (the file adapter's readFileChunks), with its size. */
export interface FileSourceOpener {
  size(path: string): Promise<number>;
  open(path: string, options: { signal?: AbortSignal }): ByteSource;
}

export interface FileWorkflowOptions {
  store: Store;
  files: FileSourceOpener;
  checks: readonly AnyCheck[];
  /** Rule slices by check id, as configured; a check absent here runs on its defaults. */
  rules?: Readonly<Record<string, unknown>>;
  /** Default: the KLV-aware MPEG-TS demuxer. */
  demuxerFactory?: DemuxerFactory;
  clock?: () => number;
}

export type ProgressPhase = 'hash' | 'analyze' | 'ingest' | 'process';

/** The payloads of the stages that can be reused, up to the first that cannot. */
export interface ReusablePayloads {
  analyze?: AnalyzePayload;
  ingest?: IngestPayload;
  process?: ProcessPayload;
}

/** A cached payload with the time it was stored. */
export interface CachedPayload<T> {
  payload: T;
  createdMs: number;
}

export interface StageRunOptions {
  signal?: AbortSignal;
  /**
   * Bytes done of the file in the current phase: 'hash' (an unknown or
   * changed file), then 'analyze' and 'ingest' (each a read of the file;
   * the checks run in the ingest's pass when `through` goes past it).
   * `process` alone reads no file: it reports the stored observations
   * replayed of the run's total.
   */
  onProgress?: (done: number, total: number, phase: ProgressPhase) => void;
  /**
   * The last stage the caller will run. When it is past `ingest` and the
   * ingest has to run, the checks run in the same pass over the file
   * (`process` then finds its payload made). Default: the stage asked for.
   */
  through?: WorkflowStage;
}

export interface IdentifyOptions extends StageRunOptions {
  /**
   * Content new to the catalog (no known file has its size) is hashed beside
   * the first pass over the file instead of before it: the identity comes
   * back `hashPending`, and that pass (a stage run with `runStage`) sets its
   * hash. For callers that run the stages next; the default hashes first.
   */
  deferNewContent?: boolean;
}

/** The checks' run over a stored run: where their points go, and the process payload once they are done. */
interface CheckRun {
  readonly pointSinks: PointSink[];
  backlog(): Promise<void> | null;
  finish(result: SessionResult, started: number): Promise<ProcessPayload>;
  abort(): Promise<void>;
}

/** Parsed stage payloads kept (three per file at most: about a hundred files). */
const MAX_PARSED_PAYLOADS = 300;

export class FileWorkflow {
  readonly key: CompatibilityKey;
  private readonly store: Store;
  private readonly files: FileSourceOpener;
  private readonly checks: readonly AnyCheck[];
  private readonly rules: Readonly<Record<string, unknown>>;
  private readonly demuxerFactory: DemuxerFactory;
  private readonly now: () => number;
  /** Payloads parsed from the catalog, by file and stage, with the stored version they came from. */
  private readonly parsedPayloads = new Map<string, { version: string } & CachedPayload<unknown>>();
  /** `hash stage` of the stages a pass made with an earlier stage's, until `runStage` reports them as run. */
  private readonly madeInPass = new Set<string>();

  constructor(options: FileWorkflowOptions) {
    this.store = options.store;
    this.files = options.files;
    this.checks = options.checks;
    this.rules = options.rules ?? {};
    this.demuxerFactory = options.demuxerFactory ?? createKlvAwareTsDemuxer;
    this.now = options.clock ?? Date.now;
    // The effective rules (defaults applied) make the key: a default that changes with a check's version changes the key too.
    const effective = Object.fromEntries(this.checks.map((check) => [check.id, parseCheckRules(check, this.rules[check.id])]));
    this.key = compatibilityKey(this.checks, effective);
  }

  private get catalog(): Database {
    return this.store.catalog.db;
  }

  /** The file's hash (from its record when unchanged, or pending: `deferNewContent`) and the catalog saved with the record. */
  async identify(path: string, options: IdentifyOptions = {}): Promise<FileIdentity> {
    let file: FileIdentity;
    try {
      file = await identifyFile(this.catalog, path, {
        signal: options.signal,
        onProgress: (done, total) => options.onProgress?.(done, total, 'hash'),
        deferNewContent: options.deferNewContent,
      });
    } catch (cause) {
      throw unreadable(path, cause);
    }
    if (file.hashed) await this.store.saveCatalog();
    return file;
  }

  /**
   * The stage payload cached for a file under the current key, if any. The
   * payload is shared (parsed once, kept while the stored one is the same):
   * read it, do not change it.
   */
  cached<T>(hash: string, stage: CachedStage): T | undefined {
    return this.cachedWithTime<T>(hash, stage)?.payload;
  }

  /** As `cached`, with the time the payload was stored. */
  cachedWithTime<T>(hash: string, stage: CachedStage): CachedPayload<T> | undefined {
    const stored = this.storedPayload<T>(hash, stage);
    if (!stored) return undefined;
    // A cached ingest or process payload is only good while its run is still stored as completed.
    const runId = (stored.payload as { runId?: string }).runId;
    if (runId !== undefined && getIngestRun(this.catalog, runId)?.status !== 'completed') return undefined;
    return stored;
  }

  /**
   * Each cached stage's payload on its own (one may be cached while a stage
   * before it is not) and the first stage to run, from one read of each.
   */
  cacheState(hash: string): { cachedStages: CachedStage[]; firstStageToRun: WorkflowStage } {
    const cached: ReusablePayloads = {
      analyze: this.cached<AnalyzePayload>(hash, 'analyze'),
      ingest: this.cached<IngestPayload>(hash, 'ingest'),
      process: this.cached<ProcessPayload>(hash, 'process'),
    };
    return { cachedStages: CACHED_STAGES.filter((stage) => cached[stage] !== undefined), firstStageToRun: firstStageToRunOf(reusableOf(cached)) };
  }

  /** The payload stored under the current key, its run not checked. */
  private storedPayload<T>(hash: string, stage: CachedStage): CachedPayload<T> | undefined {
    const key = stageKey(this.key, stage);
    const version = stagePayloadVersion(this.catalog, hash, stage, key);
    if (version === undefined) return undefined;
    const memo = `${hash} ${stage}`;
    let parsed = this.parsedPayloads.get(memo);
    if (parsed?.version !== version) {
      const row = getStagePayload(this.catalog, hash, stage, key);
      if (!row) return undefined;
      parsed = { version, payload: row.payload, createdMs: row.createdMs };
      this.parsedPayloads.delete(memo);
      this.parsedPayloads.set(memo, parsed);
      // Bounded: the least recently parsed go first.
      if (this.parsedPayloads.size > MAX_PARSED_PAYLOADS) this.parsedPayloads.delete(this.parsedPayloads.keys().next().value as string);
    }
    return { payload: parsed.payload as T, createdMs: parsed.createdMs };
  }

  /** `analyze`: inventory and KLV summary from one pass over the file. */
  async analyze(file: FileIdentity, options: StageRunOptions = {}): Promise<AnalyzePayload> {
    const started = performance.now();
    const analysis = new AnalysisPass();
    await this.readFile(file, 'analyze', options, { sinks: analysis.sinks, onPacketSize: analysis.onPacketSize, payloadConsumer: analysis.video });
    const payload = analysis.payload(file, started);
    putStagePayload(this.catalog, { hash: file.hash, stage: 'analyze', compatibilityKey: this.key.parseKey, payload, createdMs: this.now() });
    await this.store.saveCatalog();
    return payload;
  }

  /**
   * `ingest`: every observation of the file into a new stored run. The run
   * is 'running' in the catalog (saved) while it works; it becomes
   * 'completed' only once all its parts are saved, else 'cancelled' or
   * 'failed' with its partial parts deleted.
   */
  async ingest(file: FileIdentity, options: StageRunOptions = {}): Promise<IngestPayload> {
    return this.ingestRun(file, options, { analyze: false, checks: false });
  }

  /**
   * `analyze` or `ingest`, with the stages after it that `options.through`
   * names in the same pass: the analysis beside the ingest when `analyze`
   * runs and `ingest` follows, the checks when `process` follows.
   */
  private async runInPass(file: FileIdentity, stage: 'analyze' | 'ingest', options: StageRunOptions): Promise<AnalyzePayload | IngestPayload> {
    const through = WORKFLOW_STAGES.indexOf(options.through ?? stage);
    // An ingest already stored (its analysis lost) is reused: the analysis then reads the file alone.
    if (stage === 'analyze' && (through <= WORKFLOW_STAGES.indexOf('analyze') || this.cached(file.hash, 'ingest') !== undefined)) return this.analyze(file, options);
    const checks = through > WORKFLOW_STAGES.indexOf('ingest');
    const ingest = await this.ingestRun(file, options, { analyze: stage === 'analyze', checks });
    if (stage === 'ingest') return ingest;
    this.madeInPass.add(`${file.hash} ingest`);
    return this.cached<AnalyzePayload>(file.hash, 'analyze') as AnalyzePayload;
  }

  /**
   * One pass over the file into a new run. With `pass.analyze`, the
   * inventory and KLV summary are made from the same observations and cached
   * as the analyze stage's (a file that is no transport stream then fails the
   * run). With `pass.checks`, the checks consume the observations as they are
   * made and their points are stored as `process` stores them, and the
   * process payload is cached with the ingest's (all under the run, all in
   * one catalog save).
   */
  private async ingestRun(file: FileIdentity, options: StageRunOptions, pass: { analyze: boolean; checks: boolean }): Promise<IngestPayload> {
    const started = performance.now();
    const withChecks = pass.checks;
    const analysis = pass.analyze ? new AnalysisPass() : undefined;
    const run = createIngestRun(this.catalog, { hash: file.hash, path: file.path, startedMs: this.now() });
    await this.store.saveCatalog();
    let lease: DatabaseLease<StoredRun> | undefined;
    let writer: RunObservationWriter | undefined;
    let checking: CheckRun | undefined;
    try {
      // Leased, not opened and closed: the run stays open for the `process` and the reads that follow.
      lease = await this.store.leaseRun(run.id, { create: true, exclusive: true });
      // Unless a check reads klv-field, the pass leaves the fields unmade and the writer stores them as their packets' items.
      const fieldsFromItems = !(withChecks && this.checks.some((check) => check.consumes.includes('klv-field')));
      const observations = (writer = createRunObservationWriter(lease.database, { fieldsFromItems }));
      const checks = withChecks ? (checking = await this.startChecks(lease.database)) : undefined;
      const result = await this.readFile(file, 'ingest', options, {
        sinks: {
          observe: analysis ? [observations.write, ...analysis.sinks.observe] : [observations.write],
          kinds: fieldsFromItems ? KINDS_BUT_FIELDS : undefined,
        },
        checks: checks?.pointSinks,
        backlog: () => observations.backlog() ?? checks?.backlog() ?? null,
        onPacketSize: analysis?.onPacketSize,
        payloadConsumer: analysis?.video,
      });
      if (run.hash !== file.hash) setIngestRunHash(this.catalog, run.id, file.hash);
      const analyzed = analysis?.payload(file, started);
      const counts: Record<string, number> = await observations.finish();
      const ingest: IngestPayload = { runId: run.id, counts, bytes: result.bytes, elapsedMs: performance.now() - started };
      const afterRead = performance.now();
      // Its observations as a pass that made every kind counts them (process over the stored run counts them so too).
      const processed = checks && (await checks.finish({ ...result, observations: sumOf(counts) }, afterRead));
      finishIngestRun(this.catalog, run.id, { status: 'completed', finishedMs: this.now(), counts, timings: { ingestMs: Math.round(ingest.elapsedMs) } });
      if (analyzed) putStagePayload(this.catalog, { hash: file.hash, stage: 'analyze', compatibilityKey: this.key.parseKey, payload: analyzed, createdMs: this.now() });
      putStagePayload(this.catalog, { hash: file.hash, stage: 'ingest', compatibilityKey: this.key.parseKey, payload: ingest, createdMs: this.now() });
      if (processed) {
        putStagePayload(this.catalog, { hash: file.hash, stage: 'process', compatibilityKey: this.key.checkKey, payload: processed, createdMs: this.now() });
        this.madeInPass.add(`${file.hash} process`);
      }
      await this.store.saveCatalog();
      return ingest;
    } catch (error) {
      await writer?.abort();
      await checking?.abort();
      // Given back before the run's folder is deleted (deleting evicts it from the open runs).
      lease?.release();
      lease = undefined;
      // A file that is no transport stream leaves no run, as when the analysis reads it alone; nor does a run
      // whose file's hash never came (it ended before its pass did): no file could list it.
      if ((error instanceof WorkflowError && error.code === 'ERR_NOT_TRANSPORT_STREAM') || file.hashPending) await this.forgetRun(run);
      else await this.endRun(run, options.signal?.aborted ? 'cancelled' : 'failed', error);
      throw error;
    } finally {
      lease?.release();
    }
  }

  /** `process`: the checks over the observations of the file's latest completed ingest run. */
  async process(hash: string, options: StageRunOptions = {}): Promise<ProcessPayload> {
    const started = performance.now();
    const run = latestCompletedIngestRun(this.catalog, hash);
    if (!run) throw new WorkflowError('ERR_STAGE_NOT_READY', `no completed ingest run for file ${hash}: ingest it first`, { hash });
    const lease = await this.store.leaseRun(run.id, { exclusive: true });
    try {
      const stored = lease.database;
      const checking = await this.startChecks(stored);
      const total = sumOf(run.counts);
      // Only the kinds the checks read (no check reads klv-field, three quarters of a KLV recording's observations).
      const consumed = new Set<ObservationKind>(this.checks.flatMap((check) => check.consumes));
      let result;
      try {
        result = await runObservations(stored.replay(consumed), {
          checks: this.checks,
          rules: this.rules,
          keepPoints: false,
          pointSinks: checking.pointSinks,
          signal: options.signal,
          onProgress: (done) => options.onProgress?.(done, total, 'process'),
        });
      } catch (error) {
        await checking.abort();
        throw error;
      }
      // The observations of the run, as a pass over the file counts them (the kinds left unread included).
      const payload = await checking.finish({ ...result, observations: total }, started);
      putStagePayload(this.catalog, { hash, stage: 'process', compatibilityKey: this.key.checkKey, payload, createdMs: this.now() });
      await this.store.saveCatalog();
      return payload;
    } finally {
      lease.release();
    }
  }

  /** The checks' points stored into the run under the check key, the severest kept for the payload. */
  private async startChecks(run: StoredRun): Promise<CheckRun> {
    const points = await createRunPointWriter(run, this.key.checkKey);
    const top = new Map<string, MostSevere>();
    const keep = (point: Point, checkId: string): void => {
      if (!point.violation) return;
      let severest = top.get(checkId);
      if (!severest) top.set(checkId, (severest = new MostSevere(TOP_VIOLATIONS_PER_CHECK)));
      severest.add(point);
    };
    return {
      pointSinks: [(point, checkId) => points.write(point, checkId), keep],
      backlog: () => points.backlog(),
      abort: () => points.abort(),
      finish: async (result, started) => {
        const stored = await points.finish();
        const checks: ProcessedCheck[] = result.checks.map((check) => ({
          checkId: check.checkId,
          version: check.version,
          title: check.title,
          rules: check.rules,
          status: check.status,
          summary: check.summary,
          pointsStored: stored[check.checkId] ?? 0,
          topViolations: top.get(check.checkId)?.points() ?? [],
          error: check.error ? { message: check.error.message } : null,
        }));
        return { runId: run.runId, checkKey: this.key.checkKey, checks, observations: result.observations, elapsedMs: performance.now() - started };
      },
    };
  }

  /** The first stage that cannot be reused for the file under the current key ('report' when all can). */
  firstStageToRun(hash: string): WorkflowStage {
    return firstStageToRunOf(this.reusablePayloads(hash));
  }

  /**
   * How many times the stages up to `through` still have to read the file
   * (its hashing aside): once when analyze or ingest has to run (both run in
   * one pass when both must, and the checks with them), else not at all.
   */
  fileReadsThrough(hash: string, through: WorkflowStage): number {
    const first = WORKFLOW_STAGES.indexOf(this.firstStageToRun(hash));
    return first <= Math.min(WORKFLOW_STAGES.indexOf(through), WORKFLOW_STAGES.indexOf('ingest')) ? 1 : 0;
  }

  /**
   * The cached payloads that can be reused for the file, in stage order up
   * to the first that cannot (a process cached for an older run than the
   * latest ingest is stale). One pass over the catalog: the REST service
   * asks this on every cached request.
   */
  reusablePayloads(hash: string): ReusablePayloads {
    const analyze = this.cached<AnalyzePayload>(hash, 'analyze');
    const ingest = analyze && this.cached<IngestPayload>(hash, 'ingest');
    // Its run is not looked up again: a process is reused only for the ingest's run, just found completed.
    const process = ingest && this.storedPayload<ProcessPayload>(hash, 'process')?.payload;
    return reusableOf({ analyze, ingest, process });
  }

  /** One stage for the file: its cached payload when reusable, else run now (the stages before it must be done). */
  async runStage(file: FileIdentity, stage: WorkflowStage, options: StageRunOptions = {}): Promise<StageOutcome & { payload: unknown }> {
    const started = performance.now();
    const reusable = this.reusablePayloads(file.hash);
    let payload: unknown;
    let reused = false;
    if (stage === 'report') {
      payload = this.reportFrom(file, reusable);
    } else if (reusable[stage] && this.madeInPass.delete(`${file.hash} ${stage}`)) {
      // Made by the pass of a stage just before: run, not reused. Its time: for process, what the pass spent after
      // reading; for an ingest in the analysis's pass, none of its own (the pass is the analyze stage's time).
      const made = reusable[stage] as { elapsedMs: number };
      return { stage, reused: false, elapsedMs: stage === 'process' ? made.elapsedMs : 0, payload: made };
    } else if (reusable[stage]) {
      payload = reusable[stage];
      reused = true;
    } else if (stage === 'analyze' || stage === 'ingest') payload = await this.runInPass(file, stage, options);
    else payload = await this.process(file.hash, options);
    return { stage, reused, elapsedMs: performance.now() - started, payload };
  }

  /** The report from the cached analyze and process payloads when every stage before it is reusable, else null. */
  reportIfReady(file: { hash: string; path: string }): ReportPayload | null {
    const reusable = this.reusablePayloads(file.hash);
    return firstStageToRunOf(reusable) === 'report' ? this.reportFrom(file, reusable) : null;
  }

  private reportFrom(file: { hash: string; path: string }, reusable: ReusablePayloads): ReportPayload {
    if (!reusable.analyze || !reusable.process) {
      throw new WorkflowError('ERR_STAGE_NOT_READY', `file ${file.hash} has stages to run before its report`, { hash: file.hash });
    }
    return buildReport(file, reusable.analyze, reusable.process);
  }

  /**
   * Every stage still to do for the file, in order, reusing what is cached
   * under the current key; returns the payloads and how each was obtained.
   */
  async inspect(path: string, options: StageRunOptions = {}): Promise<InspectionResult> {
    const file = await this.identify(path, { ...options, deferNewContent: true });
    const stages: StageOutcome[] = [];
    const payloads: Partial<Record<WorkflowStage, unknown>> = {};
    for (const stage of WORKFLOW_STAGES) {
      const { payload, ...outcome } = await this.runStage(file, stage, { through: 'report', ...options });
      stages.push(outcome);
      payloads[stage] = payload;
    }
    const ingest = payloads.ingest as IngestPayload;
    return {
      fileHash: file.hash,
      path: file.path,
      key: this.key,
      latestIngestRunId: ingest.runId,
      stages,
      analyze: payloads.analyze as AnalyzePayload,
      ingest,
      process: payloads.process as ProcessPayload,
      report: payloads.report as ReportPayload,
    };
  }

  /** One pass over the file: the sinks see every observation; with `checks` (their point sinks), the checks run too. */
  private async readFile(
    file: FileIdentity,
    phase: ProgressPhase,
    options: StageRunOptions,
    pass: {
      sinks: { observe: ObservationSink[]; kinds?: readonly ObservationKind[] };
      checks?: PointSink[];
      backlog?: () => Promise<void> | null;
      onPacketSize?: (size: number | null) => void;
      /** Handed PES payloads beside the demuxer's own consumer (the analysis's video details). */
      payloadConsumer?: PesPayloadConsumer;
    },
  ): Promise<PipelineResult> {
    const total = file.size;
    let demuxer: Demuxer | undefined;
    let source: ByteSource;
    try {
      source = this.files.open(file.path, { signal: options.signal });
    } catch (cause) {
      throw unreadable(file.path, cause);
    }
    // Content new to the catalog is hashed on a worker thread while this pass reads it, from the pass's own chunks where it can.
    const stopHash = new AbortController();
    const hashing = file.hashPending ? new HashWhileReading(file.path, file.size, options.signal ? AbortSignal.any([options.signal, stopHash.signal]) : stopHash.signal) : null;
    const read = hashing ? hashing.through(source) : source;
    let result: PipelineResult;
    try {
      result = await runPipeline(pass.backlog ? pacedBy(read, pass.backlog) : read, {
        checks: pass.checks ? this.checks : [],
        rules: this.rules,
        keepPoints: false,
        pointSinks: pass.checks,
        observationSinks: pass.sinks.observe,
        sinkKinds: pass.sinks.kinds,
        demuxerFactory: (sink, made) => (demuxer = this.demuxerFactory(sink, { ...made, extraPayloadConsumer: pass.payloadConsumer })),
        onProgress: (done) => options.onProgress?.(done, total, phase),
        signal: options.signal,
      });
    } catch (error) {
      stopHash.abort();
      throw error;
    }
    if (hashing) await this.settleHash(file, hashing.digest());
    pass.onPacketSize?.(demuxer?.packetSize ?? null);
    return result;
  }

  /** A pending hash, once its worker is done: set on the identity and recorded in the catalog (saved with the stage). */
  private async settleHash(file: FileIdentity, digest: Promise<string>): Promise<void> {
    try {
      file.hash = await digest;
    } catch (cause) {
      throw unreadable(file.path, cause);
    }
    file.hashed = true;
    delete file.hashPending;
    recordFileHash(this.catalog, file, this.now());
  }

  private async forgetRun(run: IngestRunRow): Promise<void> {
    deleteIngestRun(this.catalog, run.id);
    await this.store.saveCatalog();
    await this.store.deleteRun(run.id);
  }

  private async endRun(run: IngestRunRow, status: 'cancelled' | 'failed', error: unknown): Promise<void> {
    finishIngestRun(this.catalog, run.id, { status, finishedMs: this.now(), error: error instanceof Error ? error.message : String(error) });
    await this.store.saveCatalog();
    await this.store.deleteRun(run.id);
  }
}

/** The analyze stage's builders, fed by a pass over the file (its own, or the ingest's). */
class AnalysisPass {
  private readonly inventory = new InventoryBuilder();
  private readonly klv = new KlvSummaryBuilder();
  /** Reads the video PES payloads: it is no observation sink, the demuxer hands it the payloads. */
  readonly video = new VideoDetailsBuilder();
  private packetSize: number | null = null;
  readonly sinks = {
    observe: [(o: Observation) => this.inventory.observe(o), (o: Observation) => this.klv.observe(o)],
    kinds: [...InventoryBuilder.kinds, ...KlvSummaryBuilder.kinds],
  };
  readonly onPacketSize = (size: number | null): void => void (this.packetSize = size);

  /** The payload; ERR_NOT_TRANSPORT_STREAM when the pass found no TS packet. */
  payload(file: FileIdentity, started: number): AnalyzePayload {
    const built = this.inventory.build(this.packetSize);
    if (built.totalPackets === 0) {
      throw new WorkflowError('ERR_NOT_TRANSPORT_STREAM', `${file.path}: not an MPEG-TS stream (no packets of 188, 192 or 204 bytes found)`, { path: file.path });
    }
    return { inventory: built, klv: this.klv.build(), video: this.video.build(), elapsedMs: performance.now() - started };
  }
}

/** Every observation kind but klv-field, which a pass leaves unmade when only the store would read it. */
const KINDS_BUT_FIELDS: readonly ObservationKind[] = OBSERVATION_KINDS.filter((kind) => kind !== 'klv-field');

function sumOf(counts: Readonly<Record<string, number>>): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/** The source's chunks, each handed on once the writers' saves have caught up (so memory stays bounded on a slow disk). */
async function* pacedBy(source: ByteSource, backlog: () => Promise<void> | null): AsyncGenerator<Uint8Array | SourceChunk, void, undefined> {
  for await (const chunk of source) {
    const waiting = backlog();
    if (waiting !== null) await waiting;
    yield chunk;
  }
}

/** The cached payloads in stage order up to the first missing one; a process cached for another run than the ingest's is stale. */
function reusableOf({ analyze, ingest, process }: ReusablePayloads): ReusablePayloads {
  if (!analyze) return {};
  if (!ingest) return { analyze };
  return process && process.runId === ingest.runId ? { analyze, ingest, process } : { analyze, ingest };
}

/** The first stage that cannot be reused ('report' when all can). */
function firstStageToRunOf(reusable: ReusablePayloads): WorkflowStage {
  return !reusable.analyze ? 'analyze' : !reusable.ingest ? 'ingest' : !reusable.process ? 'process' : 'report';
}

function unreadable(path: string, cause: unknown): WorkflowError {
  if (cause instanceof WorkflowError) return cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  return new WorkflowError('ERR_FILE_UNREADABLE', `cannot read ${path}: ${message}`, { path }, { cause });
}
