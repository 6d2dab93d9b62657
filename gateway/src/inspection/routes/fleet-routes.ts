/**
 * The fleet's routes (additive, docs/fleet.md): with `--catalog`, a batch
 * of every recording under a browse-root folder queued for the workers, the
 * batch's progress, the workers and the queue, and a failed job tried again.
 * Without a fleet they answer 409 ERR_FLEET_DISABLED.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import * as z from 'zod/mini';
import { defineRoute, type RouteModule } from '../../http/service-route.js';
import { FleetError } from '../../fleet/fleet-error.js';
import type { FleetLink } from '../../fleet/fleet-link.js';
import { DEFAULT_RECORDING_GLOB, recordingsInFolder } from '../../fleet/recordings-in-folder.js';
import { confineToRoots } from '../browse-roots.js';
import { InspectionError } from '../inspection-error.js';
import type { InspectionDeps } from '../inspection-deps.js';
import { checkSelectionOf } from '../fleet-inspection.js';

const batchBodySchema = z.strictObject({
  /** A folder under a browse root. */
  folder: z.string(),
  /** Which files under it, by their path relative to it (default the usual transport stream extensions, in every subfolder). */
  glob: z.optional(z.string().check(z.minLength(1), z.maxLength(512))),
});

const countsSchema = z.object({ created: z.number(), retry: z.number(), active: z.number(), completed: z.number(), cancelled: z.number(), failed: z.number() });

const batchSchema = z.object({ batch: z.string(), folder: z.string(), glob: z.string(), queued: z.number(), paths: z.array(z.string()) });

const batchStateSchema = z.object({ batch: z.string(), jobs: z.number(), done: z.boolean(), counts: countsSchema });

const fleetSchema = z.object({
  workers: z.array(
    z.object({
      id: z.string(),
      host: z.string(),
      pid: z.number(),
      version: z.string(),
      state: z.enum(['working', 'idle', 'offline', 'stopped']),
      startedMs: z.number(),
      heartbeatMs: z.number(),
      currentJob: z.nullable(z.string()),
      currentPath: z.nullable(z.string()),
      bytesDone: z.number(),
      bytesPerSecond: z.number(),
      jobsDone: z.number(),
      stoppedMs: z.nullable(z.number()),
    }),
  ),
  queue: countsSchema,
  failed: z.array(z.object({ id: z.string(), path: z.string(), batch: z.nullable(z.string()), error: z.string(), retries: z.number(), failedMs: z.number() })),
});

const idParams = z.object({ id: z.string().check(z.regex(/^[0-9a-f-]{36}$/, 'must be a job or batch id (a UUID)')) });

export function fleetOf(deps: InspectionDeps): FleetLink {
  if (deps.fleet === null) throw new FleetError('ERR_FLEET_DISABLED', 'this inspection service has no fleet: start it with --catalog postgres://… (docs/fleet.md)');
  return deps.fleet;
}

export const fleetRoutes: RouteModule = (deps) => [
  defineRoute({
    method: 'POST',
    path: '/automation/batch',
    summary: "queues an inspection of every recording under a browse-root folder for the fleet's workers; 202 with the batch",
    status: 202,
    schemas: { body: batchBodySchema, response: batchSchema },
    handle: async ({ body }) => {
      const fleet = fleetOf(deps);
      const { path: folder } = await confineToRoots(body.folder, deps.settings.current().browseRoots, { in: 'body', field: 'folder' });
      if (!(await stat(folder)).isDirectory()) throw new InspectionError('ERR_NOT_A_FOLDER', `${folder} is not a folder`, { path: folder });
      const glob = body.glob ?? DEFAULT_RECORDING_GLOB;
      const paths = await recordingsInFolder(folder, glob);
      const batch = randomUUID();
      await fleet.batch(paths, batch, checkSelectionOf(deps));
      return { batch, folder, glob, queued: paths.length, paths };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/automation/batch/:id',
    summary: "a batch's jobs by state, and whether every one has ended",
    schemas: { params: idParams, response: batchStateSchema },
    handle: async ({ params }) => {
      const counts = await fleetOf(deps).queue.counts(params.id);
      const jobs = Object.values(counts).reduce((sum, n) => sum + n, 0);
      if (jobs === 0) throw new FleetError('ERR_FLEET_JOB_NOT_FOUND', `no batch '${params.id}'`, { id: params.id });
      return { batch: params.id, jobs, done: counts.completed + counts.failed + counts.cancelled === jobs, counts };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/fleet',
    summary: 'the workers (host, pid, version, state, current job, throughput, last heartbeat), the queue and the failed jobs',
    schemas: { response: fleetSchema },
    handle: () => fleetOf(deps).status(),
  }),
  defineRoute({
    method: 'POST',
    path: '/fleet/jobs/:id/retry',
    summary: 'queues a failed job again, from the start',
    status: 202,
    schemas: { params: idParams, response: z.object({ id: z.string(), retried: z.boolean() }) },
    handle: async ({ params }) => {
      const retried = await fleetOf(deps).queue.retry(params.id);
      if (!retried) throw new FleetError('ERR_FLEET_JOB_NOT_FOUND', `no failed job '${params.id}'`, { id: params.id });
      return { id: params.id, retried };
    },
  }),
];
