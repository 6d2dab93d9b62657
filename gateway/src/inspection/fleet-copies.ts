/**
 * With a fleet, the data folder is a cache: before a route reads a file by
 * its hash, or an ingest run by its id, what the fleet holds of it is copied
 * in when missing (a recording a batch inspected on a worker), so every
 * dataset and detail endpoint answers as on a single node.
 */
import type { FastifyInstance } from 'fastify';
import type { InspectionDeps } from './inspection-deps.js';

const HASH = /^[0-9a-f]{64}$/;
const RUN_ID = /^[0-9a-f-]{36}$/;

export function installFleetCopies(app: FastifyInstance, deps: InspectionDeps): void {
  const fleet = deps.fleet;
  if (fleet === null) return;
  app.addHook('preHandler', async (request) => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    const url = request.routeOptions.url ?? '';
    if (typeof params.hash === 'string' && HASH.test(params.hash)) await fleet.ensureFile(deps.store, params.hash);
    if (url.includes('/ingest-runs/:id') && typeof params.id === 'string' && RUN_ID.test(params.id)) await fleet.ensureRun(deps.store, params.id);
  });
}
