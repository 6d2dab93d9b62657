/**
 * GET /api/v1/analysis/bitrate-over-time?filePath=PATH&bucketSeconds=1
 * (issue 36, additive to the spec): the bit rate of every PID over stream
 * time, for the report's stacked plot (core's PidBitrateCounter: buckets of
 * the first PCR PID's time). One pass over the file, made when asked (the
 * stored datasets keep per-PID totals, not their course over time). The
 * path is confined to the browse roots like any `filePath`.
 */
import { PidBitrateCounter, type PidBitrateSeries } from '@klvscope/core';
import * as z from 'zod/mini';
import { requestedFile } from '../requested-file.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';

const bitrateQuery = z.strictObject({
  /** An absolute path inside a browse root. */
  filePath: z.string(),
  /** Bucket length in seconds of stream time, 0.1 to 60 (default 1). */
  bucketSeconds: z.optional(z.coerce.number().check(z.gte(0.1), z.lte(60))),
});

export interface BitrateOverTime extends PidBitrateSeries {
  path: string;
}

export const bitrateOverTimeRoutes: RouteModule = (deps) => [
  defineRoute({
    method: 'GET',
    path: '/analysis/bitrate-over-time',
    summary: "every PID's bit rate over stream time, in buckets of the first PCR PID's clock (one pass over the file)",
    schemas: { query: bitrateQuery },
    handle: async ({ query }): Promise<BitrateOverTime> => {
      const file = await requestedFile(deps, query.filePath, { in: 'query', field: 'filePath' });
      const counter = new PidBitrateCounter(query.bucketSeconds ?? 1);
      for await (const chunk of deps.files.open(file.path, {})) counter.push(chunk instanceof Uint8Array ? chunk : chunk.bytes);
      return { path: file.path, ...counter.finish() };
    },
  }),
];
