/**
 * Two recordings compared (issue 36, additive to the spec):
 * GET /api/v1/compare?a=PATH&b=PATH answers both files' verdicts, totals,
 * PIDs, KLV PIDs and each check's verdict, counts and values side by side
 * (core's compareReports). As the detail endpoints do, a file's stages run
 * first where they are not cached under the current rules, so the answer is
 * always of the files as they are now. Both paths are confined to the browse
 * roots like any `filePath` (403 outside, 422 when not a readable file).
 */
import { buildReport, compareReports, type ReportComparison, type ReportPayload } from '@klvscope/core/workflow';
import * as z from 'zod/mini';
import { stagesUpTo } from '../file-stages.js';
import type { InspectionDeps } from '../inspection-deps.js';
import { requestedFile } from '../requested-file.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';

const compareQuery = z.strictObject({
  /** The first recording (the one before a change): an absolute path inside a browse root. */
  a: z.string(),
  /** The second recording. */
  b: z.string(),
});

async function reportOf(deps: InspectionDeps, filePath: string, field: 'a' | 'b'): Promise<ReportPayload> {
  const file = await requestedFile(deps, filePath, { in: 'query', field });
  const { fileHash, path, analyze, process } = await stagesUpTo(deps, file.path, 'process');
  return buildReport({ hash: fileHash, path }, analyze, process);
}

export const compareRoutes: RouteModule = (deps) => [
  defineRoute({
    method: 'GET',
    path: '/compare',
    summary: 'two recordings side by side: verdicts, totals, PIDs, KLV PIDs and every check (each file inspected first where not cached)',
    schemas: { query: compareQuery },
    handle: async ({ query }): Promise<ReportComparison> => {
      // One after the other: both go through the one queue of stage work anyway.
      const a = await reportOf(deps, query.a, 'a');
      const b = await reportOf(deps, query.b, 'b');
      return compareReports(a, b);
    },
  }),
];
