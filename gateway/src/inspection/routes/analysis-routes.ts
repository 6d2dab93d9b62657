/**
 * POST /analysis/file: synchronous file analysis (spec "File analysis and
 * processing"). The `analyze` stage of the workflow: the file's inventory
 * (programs, PIDs, bitrate, duration, errors by type) and its KLV summary,
 * read back from the cache when the unchanged file was analysed under the
 * current parser, else made now by one pass over the file (as a job of the
 * queue, which the request waits for).
 */
import type { AnalyzePayload } from '@klvscope/core/workflow';
import * as z from 'zod/mini';
import { stagesUpTo, type FileStages } from '../file-stages.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';
import { filePathBodySchema, requestedFile } from '../requested-file.js';

export interface FileAnalysis {
  fileHash: string;
  path: string;
  /** True when the payload came from the cache (nothing was read but, perhaps, the hash). */
  reused: boolean;
  analyze: AnalyzePayload;
}

/** The answer of the analysis endpoint and the result of an analysis job. */
export function fileAnalysisOf(stages: FileStages<'analyze'>): FileAnalysis {
  return { fileHash: stages.fileHash, path: stages.path, reused: stages.stages[0].reused, analyze: stages.analyze };
}

export const fileAnalysisSchema = z.object({
  fileHash: z.string(),
  path: z.string(),
  reused: z.boolean(),
  /** The analyze payload: `inventory`, `klv` (per KLV PID) and `elapsedMs` of the pass that made it. */
  analyze: z.record(z.string(), z.unknown()),
});

export const analysisRoutes: RouteModule = (deps) => [
  defineRoute({
    method: 'POST',
    path: '/analysis/file',
    summary: 'synchronous file analysis: the analyze stage (inventory and KLV summary), reused when cached',
    schemas: { body: filePathBodySchema, response: fileAnalysisSchema },
    handle: async ({ body }): Promise<FileAnalysis> => {
      const file = await requestedFile(deps, body.filePath);
      return fileAnalysisOf(await stagesUpTo(deps, file.path, 'analyze'));
    },
  }),
];
