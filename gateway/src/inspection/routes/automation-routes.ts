/**
 * Automation control and discovery (spec "Automation control and
 * discovery"): open the file session, drive it to its report, and find
 * what the store holds for a file by path or hash. The identifiers these
 * answers carry (`fileHash`, ingest run ids) are the ones the other
 * automation endpoints and the dataset exports take.
 *
 * Decisions: a lookup by path identifies the file (hashing it when the
 * catalog has no current record of the path), so a file never seen gets its
 * record and an empty list of stages and runs rather than a 404; a stage is
 * "cached" only when the workflow would reuse it now (under the current
 * compatibility key, its run still completed).
 */
import { inspectOnFleet } from '../fleet-inspection.js';
import {
  getFile,
  getFileRecord,
  getIngestRun,
  latestCompletedIngestRun,
  listIngestRuns,
  type CachedStage,
  type FileRow,
  type IngestRunRow,
} from '@klvscope/core/store';
import { stageKey, type ReportPayload, type StageRunOptions, type Workspace } from '@klvscope/core/workflow';
import * as z from 'zod/mini';
import { fileHashParams, fileHashSchema } from '../file-hash-param.js';
import { openReplacingActive } from '../file-session-replacement.js';
import type { InspectionDeps } from '../inspection-deps.js';
import { InspectionError } from '../inspection-error.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';
import { runQueued } from '../queued-work.js';
import { filePathBodySchema, requestedFile } from '../requested-file.js';

const stageParams = z.object({ hash: fileHashSchema, stage: z.enum(['analyze', 'ingest', 'process']) });
/** An ingest run id in a path. */
export const runParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(128)) });

const stageName = z.enum(['analyze', 'ingest', 'process', 'report']);

/** The summary row of an ingest run (catalog `ingest_runs`). */
export const ingestRunSchema = z.object({
  id: z.string(),
  hash: z.string(),
  path: z.string(),
  status: z.enum(['running', 'completed', 'interrupted', 'cancelled', 'failed']),
  startedMs: z.number(),
  finishedMs: z.nullable(z.number()),
  /** Rows stored per observation kind (`pcr`, `klv-field`, ...). */
  counts: z.record(z.string(), z.number()),
  timings: z.record(z.string(), z.number()),
  error: z.nullable(z.string()),
});

/** The active file session's workspace. */
export const workspaceSchema = z.object({
  sessionId: z.string(),
  kind: z.literal('file'),
  status: z.enum(['active', 'stopped', 'replaced', 'interrupted']),
  path: z.string(),
  fileHash: z.string(),
  size: z.number(),
  /** The stage to complete next; `report` once the others are done. */
  stage: stageName,
  stagesDone: z.array(z.object({ stage: stageName, reused: z.boolean(), elapsedMs: z.number() })),
  reportReady: z.boolean(),
  verdict: z.nullable(z.enum(['pass', 'warn', 'fail'])),
  latestIngestRunId: z.nullable(z.string()),
  parseKey: z.string(),
  checkKey: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const compatibilityKeySchema = z.object({ parserVersion: z.string(), checks: z.array(z.string()), rulesHash: z.string(), parseKey: z.string(), checkKey: z.string() });

const inspectSchema = z.object({
  workspace: workspaceSchema,
  fileHash: z.string(),
  latestIngestRunId: z.nullable(z.string()),
  /** The report: overall verdict, each check's verdict and the most severe violations. */
  report: z.nullable(z.record(z.string(), z.unknown())),
});

const lookupSchema = z.object({
  file: z.object({ hash: z.string(), size: z.number(), firstPath: z.string(), firstSeenMs: z.number() }),
  record: z.nullable(z.object({ path: z.string(), size: z.number(), mtimeMs: z.number(), hash: z.string(), checkedMs: z.number() })),
  compatibilityKey: compatibilityKeySchema,
  /** The stages the workflow would reuse now, in order. */
  cachedStages: z.array(z.enum(['analyze', 'ingest', 'process'])),
  /** The first stage an inspection would run (`report`: none). */
  nextStage: stageName,
  ingestRuns: z.array(ingestRunSchema),
});

const stagePayloadSchema = z.object({
  fileHash: z.string(),
  stage: z.enum(['analyze', 'ingest', 'process']),
  compatibilityKey: z.string(),
  createdMs: z.number(),
  payload: z.record(z.string(), z.unknown()),
});

export interface InspectAnswer {
  workspace: Workspace;
  fileHash: string;
  latestIngestRunId: string | null;
  report: ReportPayload | null;
}

function knownFile(deps: InspectionDeps, hash: string): FileRow {
  const file = getFile(deps.store.catalog.db, hash);
  if (!file) throw new InspectionError('ERR_FILE_UNKNOWN', `no file with hash ${hash} has been recorded`, { hash });
  return file;
}

/** The summary row of an ingest run; ERR_INGEST_RUN_NOT_FOUND when there is none. */
export function ingestRunOf(deps: Pick<InspectionDeps, 'store'>, id: string): IngestRunRow {
  const run = getIngestRun(deps.store.catalog.db, id);
  if (!run) throw new InspectionError('ERR_INGEST_RUN_NOT_FOUND', `no ingest run '${id}'`, { id });
  return run;
}

/**
 * Opens the file as the active session and runs every stage left; reading files, it runs as a job unless all is
 * cached. New content is hashed beside the job's pass (its workspace's `fileHash` is '' until then).
 */
async function inspectInSession(deps: InspectionDeps, path: string): Promise<Workspace> {
  const work = async (options: StageRunOptions): Promise<Workspace> => {
    await openReplacingActive(deps, path, { ...options, deferNewContent: true });
    return deps.fileSessions.runToReport(options);
  };
  await inspectOnFleet(deps, path);
  const workflow = deps.rules.workflow();
  const { hash } = await workflow.identify(path, { deferNewContent: true });
  if (workflow.firstStageToRun(hash) === 'report') return work({});
  return runQueued(deps.jobs, 'process', path, ({ signal }) => work({ signal }));
}

export const automationRoutes: RouteModule = (deps) => [
  defineRoute({
    method: 'POST',
    path: '/automation/file-session',
    summary: 'opens or replaces the active file session; returns its workspace (its stage: the first not reusable)',
    schemas: { body: filePathBodySchema, response: workspaceSchema },
    handle: async ({ body }): Promise<Workspace> => {
      const { path } = await requestedFile(deps, body.filePath);
      return openReplacingActive(deps, path);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/automation/file-session/inspect',
    summary: 'opens or replaces the active file session, runs the remaining stages and waits for the report',
    schemas: { body: filePathBodySchema, response: inspectSchema },
    handle: async ({ body }): Promise<InspectAnswer> => {
      const file = await requestedFile(deps, body.filePath);
      const workspace = await inspectInSession(deps, file.path);
      return { workspace, fileHash: workspace.fileHash, latestIngestRunId: workspace.latestIngestRunId, report: deps.fileSessions.activeReport() };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/automation/files/lookup',
    summary: 'from a filePath: the stored file record, the current compatibility key, the stages reusable under it and the ingest runs',
    schemas: { body: filePathBodySchema, response: lookupSchema },
    handle: async ({ body }) => {
      const requested = await requestedFile(deps, body.filePath);
      const workflow = deps.rules.workflow();
      const { hash, path } = await workflow.identify(requested.path);
      const db = deps.store.catalog.db;
      const file = knownFile(deps, hash);
      const { cachedStages, firstStageToRun } = workflow.cacheState(hash);
      return {
        file,
        record: getFileRecord(db, path) ?? null,
        compatibilityKey: workflow.key,
        cachedStages,
        nextStage: firstStageToRun,
        ingestRuns: listIngestRuns(db, hash),
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/automation/files/:hash/stages/:stage',
    summary: 'the cached payload of stage analyze, ingest or process under the current compatibility key (404 when none)',
    schemas: { params: stageParams, response: stagePayloadSchema },
    handle: ({ params }) => {
      const { hash } = params;
      const stage: CachedStage = params.stage;
      knownFile(deps, hash);
      const workflow = deps.rules.workflow();
      const key = stageKey(workflow.key, stage);
      const cached = workflow.cachedWithTime(hash, stage);
      if (!cached) {
        throw new InspectionError('ERR_STAGE_NOT_CACHED', `file ${hash} has no ${stage} stage reusable under the current compatibility key`, { hash, stage, compatibilityKey: key });
      }
      return { fileHash: hash, stage, compatibilityKey: key, createdMs: cached.createdMs, payload: cached.payload };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/automation/files/:hash/ingest-runs',
    summary: 'every stored ingest run of the file hash, newest first',
    schemas: { params: fileHashParams, response: z.object({ fileHash: z.string(), ingestRuns: z.array(ingestRunSchema) }) },
    handle: ({ params }): { fileHash: string; ingestRuns: IngestRunRow[] } => {
      knownFile(deps, params.hash);
      return { fileHash: params.hash, ingestRuns: listIngestRuns(deps.store.catalog.db, params.hash) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/automation/files/:hash/ingest-runs/latest',
    summary: 'the newest completed ingest run of the file hash (404 when none)',
    schemas: { params: fileHashParams, response: ingestRunSchema },
    handle: ({ params }): IngestRunRow => {
      knownFile(deps, params.hash);
      const run = latestCompletedIngestRun(deps.store.catalog.db, params.hash);
      if (!run) throw new InspectionError('ERR_INGEST_RUN_NOT_FOUND', `file ${params.hash} has no completed ingest run`, { hash: params.hash });
      return run;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/automation/ingest-runs/:id',
    summary: 'the persisted ingest-run summary row',
    schemas: { params: runParams, response: ingestRunSchema },
    handle: ({ params }): IngestRunRow => ingestRunOf(deps, params.id),
  }),
];

