/**
 * The hub's routes (docs/fleet.md "Probes"): the fleet's live probes with
 * their sessions, one probe, and a probe's session stopped. A session is
 * started on a probe with POST /sessions/live and its `probe` field
 * (session-routes.ts). Without a fleet they answer 409 ERR_FLEET_DISABLED.
 */
import * as z from 'zod/mini';
import { defineRoute, type RouteModule } from '../../http/service-route.js';
import { fleetOf } from './fleet-routes.js';

const nameParams = z.object({ name: z.string().check(z.minLength(1), z.maxLength(200)) });
const sessionParams = z.object({ name: z.string().check(z.minLength(1), z.maxLength(200)), id: z.string().check(z.minLength(1), z.maxLength(128)) });

export const probeRoutes: RouteModule = (deps) => [
  defineRoute({
    method: 'GET',
    path: '/probes',
    summary: "the fleet's live probes (name, host, version, last heartbeat, online) each with its sessions: state light, bit rate, last finding, sparkline",
    schemas: {},
    handle: async () => ({ probes: await fleetOf(deps).probes.probes(true) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/probes/:name',
    summary: 'one probe and its sessions (404 ERR_PROBE_NOT_FOUND)',
    schemas: { params: nameParams },
    handle: ({ params }) => fleetOf(deps).probes.probe(params.name),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/probes/:name/sessions/:id',
    summary: "stops a probe's session (through the catalog: the probe needs no open port); 409 ERR_PROBE_OFFLINE when its heartbeat stopped",
    schemas: { params: sessionParams },
    handle: ({ params }) => fleetOf(deps).probes.stopSession(params.name, params.id),
  }),
];
