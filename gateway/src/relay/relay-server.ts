/**
 * The channel relay's HTTP surface (spec/channel-relay.md, port 5173, paths
 * under /api): Fastify with the inspection service's shared pieces (the one
 * JSON error body, the X-API-Key guard, the Host header guard on loopback,
 * routes as data validated by their zod schemas), the docs page over the
 * OpenAPI document made from those routes, and the console at `/`.
 */
import { createLimitedServer, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from '../http/connection-limits.js';
import { fastify, type FastifyInstance } from 'fastify';
import { APP_VERSION } from '../app-version.js';
import { installApiKeyGuard } from '../http/api-key-guard.js';
import { installErrorHandling } from '../http/error-response.js';
import { installJsonBodyParser } from '../http/json-body-parser.js';
import { installHostHeaderGuard } from '../http/host-header-guard.js';
import type { InspectionRoute } from '../http/service-route.js';
import { isLoopbackHost } from '../http/loopback-host.js';
import { registerRoutes } from '../http/route-registration.js';
import { serviceFastifyOptions } from '../http/service-fastify-options.js';
import type { StaticFiles } from '../http/static-files.js';
import { installConsolePage } from './console-page.js';
import { installDocsPage, type DocsFile } from './docs-page.js';
import { RELAY_API_PREFIX } from './relay-address.js';
import type { RelayContext, RelayRouteModule } from './relay-context.js';
import { buildRelayOpenApiDocument } from './relay-openapi-document.js';
import { channelRoutes } from './routes/channel-routes.js';
import { eventRoutes } from './routes/event-routes.js';
import { platformRoutes } from './routes/platform-routes.js';
import { recordRoutes } from './routes/record-routes.js';
import { stateRoutes } from './routes/state-routes.js';
import { systemRoutes } from './routes/system-routes.js';

/** Platform uploads are the largest bodies: 64 platforms of 64 channels fit well under 1 MiB. */
const BODY_LIMIT_BYTES = 1024 * 1024;

export const RELAY_ROUTE_MODULES: readonly RelayRouteModule[] = [systemRoutes, platformRoutes, recordRoutes, channelRoutes, stateRoutes, eventRoutes];

export interface RelayAppOptions {
  host: string;
  apiKey: string;
  docs: Map<string, DocsFile> | null;
  /** The built relay console (web/dist/relay-console); null: `/` says how to build it. */
  console: StaticFiles | null;
  /** Timeouts and caps of its connections (connection-limits.ts). */
  connectionLimits?: Partial<ConnectionLimits>;
}

export function createRelayApp(context: RelayContext, options: RelayAppOptions): { app: FastifyInstance; routes: readonly InspectionRoute[] } {
  const app = fastify({ ...serviceFastifyOptions(BODY_LIMIT_BYTES), serverFactory: (handler) => createLimitedServer(handler, { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits }) });
  const loopback = isLoopbackHost(options.host);
  // On loopback, reads are open to the machine's own users; bound to a network address, only health answers without the key.
  const routes = RELAY_ROUTE_MODULES.flatMap((module) => module(context)).map((route) => ({ ...allOrNothing(context, route), public: route.public === true && (loopback || route.path === '/health') }));
  if (loopback) installHostHeaderGuard(app);
  installApiKeyGuard(app, options.apiKey);
  installErrorHandling(app);
  installJsonBodyParser(app);
  registerRoutes(app, routes, RELAY_API_PREFIX);
  const openApi = buildRelayOpenApiDocument(routes, APP_VERSION);
  installDocsPage(app, options.docs, () => openApi, loopback);
  installConsolePage(app, options.console);
  return { app, routes };
}

/** A request that may change something changes all of it or, refused (its save too), nothing (RelayService.changeOrRollBack). */
function allOrNothing(context: RelayContext, route: InspectionRoute): InspectionRoute {
  if (route.method === 'GET') return route;
  return { ...route, handle: (input) => context.service.changeOrRollBack(() => Promise.resolve(route.handle(input))) };
}
