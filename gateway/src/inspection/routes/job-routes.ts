/**
 * Analysis, ingest and processing jobs (spec "File analysis and
 * processing"): POST starts one on a file (202 with the job's view), GET
 * reads its state, DELETE cancels an ingest job. Each job runs the
 * workflow's stages up to its own, reusing every cached one before it:
 *
 * - analysis: `analyze`;
 * - ingest: `analyze`, then `ingest` (a cached ingest run is reused, not
 *   made again);
 * - process: `analyze`, `ingest`, then `process` (the checks under the
 *   current rules over the stored observations) — so a process job on a
 *   file never ingested ingests it first, rather than refusing.
 *
 * A job id asked for on another kind's path is 404, as an unknown id.
 */
import {
  WorkflowError,
  type IngestPayload,
  type JobKind,
  type JobView,
  type JobWork,
  type ProcessPayload,
  type ProcessedCheck,
  type StageOutcome,
} from '@klvscope/core/workflow';
import * as z from 'zod/mini';
import { JOB_KIND, runStagesUpTo, stageOptionsOf, type LastStage } from '../file-stages.js';
import type { InspectionDeps } from '../inspection-deps.js';
import { defineRoute, type InspectionRoute, type RouteModule } from '../../http/service-route.js';
import { filePathBodySchema, requestedFile } from '../requested-file.js';
import { fileAnalysisOf } from './analysis-routes.js';
import { inspectOnFleet } from '../fleet-inspection.js';

export const jobViewSchema = z.object({
  id: z.string(),
  kind: z.enum(['analysis', 'ingest', 'process']),
  /** The file the job works on (resolved path). */
  subject: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
  /** Bytes read of every file read the job makes; bytesTotal is null until the file is identified. */
  progress: z.object({ bytesDone: z.number(), bytesTotal: z.nullable(z.number()) }),
  createdAt: z.string(),
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
  error: z.nullable(z.object({ code: z.string(), message: z.string() })),
  /** Once completed: what the job made (see docs/rest.md). */
  result: z.unknown(),
});

const jobParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(128)) });

export interface IngestJobResult {
  fileHash: string;
  path: string;
  stages: StageOutcome[];
  ingestRunId: string;
  ingest: IngestPayload;
}

export interface ProcessJobResult {
  fileHash: string;
  path: string;
  stages: StageOutcome[];
  ingestRunId: string;
  /** The process payload less each check's rules and top violations (the detail endpoints and the cached stage have them). */
  process: Omit<ProcessPayload, 'checks'> & { checks: Array<Omit<ProcessedCheck, 'topViolations' | 'rules'>> };
}

interface JobPath {
  /** Under /api/v1. */
  path: string;
  last: LastStage;
  noun: string;
}

const JOB_PATHS: readonly JobPath[] = [
  { path: '/analysis/file/jobs', last: 'analyze', noun: 'analysis' },
  { path: '/ingest/file/jobs', last: 'ingest', noun: 'ingest' },
  { path: '/process/file/jobs', last: 'process', noun: 'processing' },
];

/** The job's work: the stages up to its own, with its signal and progress. */
function jobWork(deps: InspectionDeps, kind: JobKind, path: string): JobWork<unknown> {
  const workflow = deps.rules.workflow();
  return async (context) => {
    await inspectOnFleet(deps, path, context.signal);
    const options = stageOptionsOf(context);
    if (kind === 'analysis') return fileAnalysisOf(await runStagesUpTo(workflow, path, 'analyze', options));
    if (kind === 'ingest') {
      const { fileHash, stages, ingest, path: identified } = await runStagesUpTo(workflow, path, 'ingest', options);
      return { fileHash, path: identified, stages, ingestRunId: ingest.runId, ingest } satisfies IngestJobResult;
    }
    const { fileHash, stages, process, path: identified } = await runStagesUpTo(workflow, path, 'process', options);
    const checks = process.checks.map(({ topViolations: _top, rules: _rules, ...check }) => check);
    return { fileHash, path: identified, stages, ingestRunId: process.runId, process: { ...process, checks } } satisfies ProcessJobResult;
  };
}

/** The job of that id and kind; ERR_JOB_NOT_FOUND for an unknown id or another kind's job. */
function jobOfKind(deps: InspectionDeps, id: string, kind: JobKind): JobView {
  const job = deps.jobs.get(id);
  if (!job || job.kind !== kind) throw new WorkflowError('ERR_JOB_NOT_FOUND', `no ${kind} job '${id}'`, { id, kind });
  return job;
}

export const jobRoutes: RouteModule = (deps) =>
  JOB_PATHS.flatMap(({ path, last, noun }): InspectionRoute[] => {
    const kind: JobKind = JOB_KIND[last];
    const routes: InspectionRoute[] = [
      defineRoute({
        method: 'POST',
        path,
        summary: `starts ${noun === 'analysis' ? 'an' : 'a'} ${noun} job on a file (the stages up to ${last}, reusing the cached ones); 202 with the job`,
        status: 202,
        schemas: { body: filePathBodySchema, response: jobViewSchema },
        handle: async ({ body }) => {
          const file = await requestedFile(deps, body.filePath);
          return deps.jobs.submit(kind, file.path, jobWork(deps, kind, file.path));
        },
      }),
      defineRoute({
        method: 'GET',
        path: `${path}/:id`,
        summary: `${noun} job status`,
        schemas: { params: jobParams, response: jobViewSchema },
        handle: ({ params }) => jobOfKind(deps, params.id, kind),
      }),
    ];
    if (kind === 'ingest') {
      routes.push(
        defineRoute({
          method: 'DELETE',
          path: `${path}/:id`,
          summary: 'cancels an ingest job (409 once finished); answers when it has stopped, its run marked cancelled',
          schemas: { params: jobParams, response: jobViewSchema },
          handle: async ({ params }) => {
            jobOfKind(deps, params.id, kind);
            deps.jobs.cancel(params.id);
            // A running ingest stops at its next chunk and deletes its partial run: answer its final state.
            return deps.jobs.wait(params.id);
          },
        }),
      );
    }
    return routes;
  });
