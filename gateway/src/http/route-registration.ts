/**
 * Mounts InspectionRoutes on Fastify under /api/v1 (or another prefix): each handler parses its
 * input with the route's zod schemas first (a 400 naming the fields), then
 * answers what the route returns as JSON.
 */
import type { FastifyInstance } from 'fastify';
import type { InspectionRoute } from './service-route.js';
import { parseRouteInput } from './request-validation.js';
import { API_PREFIX } from '../inspection/service-address.js';

/** The routes mounted on a server (for the OpenAPI document and the tests). */
const mounted = new WeakMap<FastifyInstance, readonly InspectionRoute[]>();

export function mountedRoutesOf(app: FastifyInstance): readonly InspectionRoute[] {
  return mounted.get(app) ?? [];
}

/** `prefix`: the inspection service's /api/v1 unless a service has its own (the relay's /api). */
export function registerRoutes(app: FastifyInstance, routes: readonly InspectionRoute[], prefix: string = API_PREFIX): void {
  mounted.set(app, [...(mounted.get(app) ?? []), ...routes]);
  for (const route of routes) {
    app.route({
      method: route.method,
      url: `${prefix}${route.path}`,
      config: { public: route.public === true },
      handler: async (request, reply) => {
        const input = parseRouteInput(route.schemas, request);
        const result: unknown = await route.handle({ ...input, request, reply });
        if (result === reply || reply.sent) return reply;
        if (result === undefined) return reply.code(204).send();
        return reply.code(route.status ?? 200).send(result);
      },
    });
  }
}
