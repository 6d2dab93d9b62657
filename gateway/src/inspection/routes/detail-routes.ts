/**
 * The file-analysis detail endpoints (spec "File-analysis detail
 * endpoints"): GET /analysis/file/{checkId}?filePath=... for each built-in
 * check, the check's points for one file. The file goes through the
 * workflow first: every stage not reusable under the current rules runs
 * (as a job of the queue, waited for), the cached ones are read back, so a
 * second call on an unchanged file reads nothing but the stored points.
 * The points are those `process` stored in the run database under its
 * check key; the summary is the process payload's.
 */
import { CoreError, type CheckSummary, type Point } from '@klvscope/core';
import { listParameter } from '@klvscope/core/store';
import { type ProcessedCheck } from '@klvscope/core/workflow';
import { DETAIL_ENDPOINT_IDS, MPEGTS_ERROR_POINT_TYPES, type DetailEndpointId } from '@klvscope/plugins';
import * as z from 'zod/mini';
import { stagesUpTo } from '../file-stages.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';
import { requestedFile } from '../requested-file.js';
import { invalidFields } from '../../http/request-validation.js';

/** Points per page unless `limit` says otherwise, and the most a page may hold. */
export const DEFAULT_DETAIL_LIMIT = 10_000;
export const MAX_DETAIL_LIMIT = 100_000;

const detailQuery = z.strictObject({
  /** Absolute path of the recorded file. */
  filePath: z.string(),
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(MAX_DETAIL_LIMIT))),
  offset: z.optional(z.coerce.number().check(z.int(), z.minimum(0))),
  /** `true`: only the points that break a rule. */
  violations: z.optional(z.enum(['true', 'false'])),
});

/** mpegts-errors alone takes `types`: comma-separated and/or repeated point types (TS error types and TR 101 290 indicators). */
const mpegtsErrorsQuery = z.extend(detailQuery, { types: z.optional(z.union([z.string(), z.array(z.string())])) });

export interface DetailPoint extends Omit<Point, 'type'> {
  /** The kind of point (e.g. `continuity-error`), null when the check gives none. */
  type: string | null;
}

export interface CheckDetail {
  checkId: string;
  title: string;
  version: string;
  fileHash: string;
  path: string;
  ingestRunId: string;
  /** The check key the points were stored under (checks, versions and rules of the run). */
  checkKey: string;
  /** The rules the check ran with. */
  rules: unknown;
  /** `completed`, or `failed` when the check threw (its points stop there, `error` says why). */
  status: ProcessedCheck['status'];
  error: ProcessedCheck['error'];
  summary: CheckSummary;
  /** Points matching the filters (all pages). */
  total: number;
  limit: number;
  offset: number;
  points: DetailPoint[];
}

/** The `types` filter as a list, each checked against the check's point types (400 naming an unknown one). */
function pointTypes(types: string | string[] | undefined): string[] | undefined {
  if (types === undefined) return undefined;
  const chosen = listParameter(types);
  const unknown = chosen.filter((type) => !MPEGTS_ERROR_POINT_TYPES.includes(type));
  if (unknown.length > 0) {
    throw invalidFields([{ in: 'query', field: 'types', message: `unknown point type ${unknown.map((t) => `'${t}'`).join(', ')} (known: ${MPEGTS_ERROR_POINT_TYPES.join(', ')})` }]);
  }
  return chosen.length > 0 ? chosen : undefined;
}

export const detailRoutes: RouteModule = (deps) =>
  DETAIL_ENDPOINT_IDS.map((checkId: DetailEndpointId) =>
    defineRoute({
      method: 'GET',
      path: `/analysis/file/${checkId}`,
      summary: `the ${checkId} points of a file (the workflow's stages run first where not cached)`,
      schemas: { query: checkId === 'mpegts-errors' ? mpegtsErrorsQuery : detailQuery },
      handle: async ({ query }): Promise<CheckDetail> => {
        const types = pointTypes((query as z.output<typeof mpegtsErrorsQuery>).types);
        const file = await requestedFile(deps, query.filePath, { in: 'query', field: 'filePath' });
        const { fileHash, path, process } = await stagesUpTo(deps, file.path, 'process');
        const check = process.checks.find((c) => c.checkId === checkId);
        if (!check) {
          throw new CoreError('ERR_CHECK_NOT_FOUND', `check ${checkId} is not enabled in the current rule set, so it has no points`, { checkId });
        }
        const limit = query.limit ?? DEFAULT_DETAIL_LIMIT;
        const offset = query.offset ?? 0;
        const page = await deps.store.readRun(process.runId, (run) =>
          run.readCheckPoints(process.checkKey, checkId, { types, violationsOnly: query.violations === 'true', limit, offset }),
        );
        return {
          checkId,
          title: check.title,
          version: check.version,
          fileHash,
          path,
          ingestRunId: process.runId,
          checkKey: process.checkKey,
          rules: check.rules,
          status: check.status,
          error: check.error,
          summary: check.summary,
          total: page.total,
          limit,
          offset,
          points: page.points.map((point) => ({ ...point, type: point.type ?? null })),
        };
      },
    }),
  );
