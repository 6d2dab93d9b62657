/**
 * The inspection service (spec/inspection-service.md): a Fastify server on
 * the loopback interface, routes under /api/v1, one JSON error body, the
 * X-API-Key guard. createInspectionServer builds it over a data folder;
 * startInspectionServer refuses a host that is not loopback, then listens
 * (on 127.0.0.1 and, where the system has it, ::1 too).
 */
import { installFleetCopies } from './fleet-copies.js';
import { mkdir } from 'node:fs/promises';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createLimitedServer, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from '../http/connection-limits.js';
import { join } from 'node:path';
import { type AnyCheck } from '@klvscope/core';
import { Store, defaultDataDir } from '@klvscope/core/store';
import type { LiveSource } from '@klvscope/adapters';
import { LogController, fastify, type FastifyInstance } from 'fastify';
import { APP_VERSION } from '../app-version.js';
import { installApiKeyGuard } from '../http/api-key-guard.js';
import { resolveApiKey } from '../http/api-key.js';
import { answerClientError } from '../http/client-error.js';
import { installErrorHandling, sendError } from '../http/error-response.js';
import { installJsonBodyParser } from '../http/json-body-parser.js';
import { installHostHeaderGuard } from '../http/host-header-guard.js';
import { installLicenceHeader, logLicenceMode, setLicenceHeader } from './licence-announcement.js';
import { closeInspectionDeps, createInspectionDeps, type ApiKeyInfo, type InspectionDeps } from './inspection-deps.js';
import { InspectionError } from './inspection-error.js';
import type { RouteModule } from '../http/service-route.js';
import { INSPECTION_ROUTE_MODULES } from './inspection-routes.js';
import { defaultSettings, type Settings } from './inspection-settings.js';
import { assertLoopbackHost, DEFAULT_HOST, IPV6_LOOPBACK } from '../http/loopback-host.js';
import { registerRoutes } from '../http/route-registration.js';
import { webAppFiles } from '../http/web-app-files.js';
import { dashboardSignInUrl, installDashboardPages } from './dashboard-pages.js';
import { installMapTileRoutes, type ServedMapTiles } from '../http/map-tile-routes.js';
import { API_PREFIX, DEFAULT_PORT } from './service-address.js';
import { serviceLogger } from './service-logger.js';
import { createLiveChannel, type LiveChannel } from '../live/live-channel.js';
import { RECORDINGS_FOLDER_NAME } from '../streaming/streaming-config.js';
import { listenOrExplain, serviceUrl } from '../service-lifecycle.js';

/** The routes a server mounted, as data: for the OpenAPI document and for tests that go through every route. */
export { mountedRoutesOf as inspectionRoutesOf } from '../http/route-registration.js';

/** Requests carry paths and settings, never recordings: 1 MiB is far above any legitimate body. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export type ServiceLogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';

export interface InspectionServerOptions {
  /** An open store: the caller keeps it, and closes it after the server. */
  store?: Store;
  /** Without `store`: the data folder the server opens (default KLVSCOPE_DATA_DIR or ./data) and closes with itself. */
  dataDir?: string;
  /** The API key, from the embedding program's configuration: wins over KLVSCOPE_API_KEY and the key file. */
  apiKey?: string;
  /** Where KLVSCOPE_API_KEY and KLVSCOPE_DATA_DIR are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  bodyLimitBytes?: number;
  /** Timeouts and caps of its connections (connection-limits.ts); tests make them small. */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Service log (pino JSON lines); default: warnings and errors on stderr. */
  log?: { level?: ServiceLogLevel; stream?: { write(line: string): void } };
  /** Route files mounted after the built-in ones. */
  routes?: readonly RouteModule[];
  /** The settings a user has not changed (default: browse root = the home folder, see inspection-settings.ts). */
  defaultSettings?: Settings;
  /** The checks the service runs (default: the built-in ones; `serve` adds the configured plugins). */
  checks?: readonly AnyCheck[];
  /** The vendor's licence public key, PEM text or a path (default: the built-in key). */
  licencePublicKey?: string;
  /** Opens a live source URL (default: the adapters' UDP, multicast and serial sources). */
  openLiveSource?: (url: string) => Promise<LiveSource>;
  /** The fleet's PostgreSQL (`--catalog`): inspections run on its workers, the data folder caches their results (docs/fleet.md). */
  catalogUrl?: string;
  /** Map imagery for the dashboard's maps (`--tiles`: a tile folder, an MBTiles file or a tile URL), at GET /tiles; the caller closes local tiles. */
  mapTiles?: ServedMapTiles | null;
}

export interface InspectionListenOptions extends InspectionServerOptions {
  /** Default 127.0.0.1; must be loopback (127.0.0.0/8, ::1, localhost). */
  host?: string;
  /** Default 38180; 0 picks a free port. */
  port?: number;
}

export interface RunningInspectionServer {
  app: FastifyInstance;
  /** The base URL on the first address listened on: `http://127.0.0.1:38180/api/v1`. */
  url: string;
  /** The base URL on every address listened on (::1 as well, where it was bound). */
  urls: string[];
  port: number;
  dataDir: string;
  apiKey: ApiKeyInfo;
  /** The dashboard with the key in the fragment (`http://127.0.0.1:38180/#key=KEY`): what `serve` prints for a person to open. */
  signInUrl: string;
  /** Where the fleet's PostgreSQL is (host:port/database), or null on a single node. */
  fleet: string | null;
  /** Stops accepting, lets requests in flight finish, stops the services, closes the store if the server opened it. */
  close(): Promise<void>;
}

/** What start needs from create, kept out of the public instance. */
interface ServerRuntime {
  deps: InspectionDeps;
  handler: RequestListener;
  /** The listeners beside Fastify's own server (::1). */
  extraServers: Server[];
  /** The live-findings channel (tRPC over WebSocket), on every listener. */
  liveChannel: LiveChannel;
  apiKeyValue: string;
}

const runtimes = new WeakMap<FastifyInstance, ServerRuntime>();

export async function createInspectionServer(options: InspectionServerOptions = {}): Promise<FastifyInstance> {
  const ownsStore = options.store === undefined;
  const store = options.store ?? (await Store.open({ dataDir: options.dataDir ?? defaultDataDir(options.env) }));
  try {
    // Under the store's lock: no other process creates the key file meanwhile.
    const apiKey = await resolveApiKey({ dataDir: store.dataDir, key: options.apiKey, env: options.env });
    let handler: RequestListener | undefined;
    const app = fastify({
      bodyLimit: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
      logger: { level: options.log?.level ?? 'warn', stream: options.log?.stream ?? process.stderr },
      // Errors are logged by the error handler (500s only); a line per request would drown them.
      logController: new LogController({ disableRequestLogging: true }),
      // Requests on open connections during close get our own body (closing guard below), not Fastify's.
      return503OnClosing: false,
      frameworkErrors: (error, request, reply) => {
        setLicenceHeader(reply);
        sendError(error, request, reply);
      },
      clientErrorHandler: answerClientError,
      serverFactory: (fastifyHandler) => {
        handler = fastifyHandler;
        return createLimitedServer(handler, { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits });
      },
    });
    // Loaded only for a fleet: a single node never loads the PostgreSQL client.
    const log = serviceLogger(app.log);
    const fleet = options.catalogUrl === undefined ? null : await (await import('../fleet/fleet-link.js')).FleetLink.connect(options.catalogUrl, log);
    const deps = await createInspectionDeps({ fleet, openLiveSource: options.openLiveSource, checks: options.checks, licencePublicKey: options.licencePublicKey, store, apiKey: { source: apiKey.source, filePath: apiKey.filePath, created: apiKey.created }, appVersion: APP_VERSION, log, defaultSettings: options.defaultSettings ?? (await settingsWithRecordings(store.dataDir)) });
    const routes = [...INSPECTION_ROUTE_MODULES, ...(options.routes ?? [])].flatMap((module) => module(deps));
    const liveChannel = createLiveChannel(deps.live, apiKey.value, fleet?.probes ?? null);
    liveChannel.attach(app.server);
    const runtime: ServerRuntime = { deps, handler: handler as RequestListener, extraServers: [], liveChannel, apiKeyValue: apiKey.value };
    runtimes.set(app, runtime);

    let closing = false;
    app.addHook('onRequest', (_request, reply, done) => {
      if (!closing) return done();
      void reply.header('connection', 'close');
      done(new InspectionError('ERR_SHUTTING_DOWN', 'the inspection service is shutting down'));
    });
    installHostHeaderGuard(app);
    installApiKeyGuard(app, apiKey.value);
    installLicenceHeader(app, deps.licence);
    logLicenceMode(deps.log, deps.licence.licenceStatus());
    installErrorHandling(app);
    // RFC 7396 bodies (PATCH /config) are JSON under their own media type.
    installJsonBodyParser(app, ['application/json', 'application/merge-patch+json']);

    installFleetCopies(app, deps);
    registerRoutes(app, routes);
    installMapTileRoutes(app, options.mapTiles ?? null);
    installDashboardPages(app, await webAppFiles('dashboard'));

    const extraClosed: Array<Promise<void>> = [];
    app.addHook('preClose', async () => {
      closing = true;
      extraClosed.push(...runtime.extraServers.map(stopAccepting));
      // WebSocket connections would hold the server open: they close first (clients are told to reconnect).
      await liveChannel.close();
      // Jobs and sessions stop first, so that requests waiting on them end and the server can close.
      await closeInspectionDeps(deps);
    });
    app.addHook('onClose', async () => {
      try {
        await Promise.all(extraClosed);
      } finally {
        if (ownsStore) await store.close();
      }
    });
    return app;
  } catch (error) {
    if (ownsStore) await store.close();
    throw error;
  }
}

/**
 * The default settings, with the streaming module's recordings folder of the
 * same data folder as a second browse root (made if missing), so that a
 * recording can be inspected through REST as soon as it is written.
 */
async function settingsWithRecordings(dataDir: string): Promise<Settings> {
  const recordings = join(dataDir, RECORDINGS_FOLDER_NAME);
  await mkdir(recordings, { recursive: true });
  const settings = defaultSettings();
  return { ...settings, browseRoots: [...settings.browseRoots, recordings] };
}

/** Checks the host, builds the server and listens. */
export async function startInspectionServer(options: InspectionListenOptions = {}): Promise<RunningInspectionServer> {
  const host = options.host ?? DEFAULT_HOST;
  // Before anything is opened: a refused host leaves no lock and no key file behind.
  assertLoopbackHost(host);
  const app = await createInspectionServer(options);
  const runtime = runtimes.get(app) as ServerRuntime;
  // 'localhost' means both loopback addresses, as the default does; no DNS answer decides it.
  const name = host.trim().replace(/^\[(.*)\]$/, '$1');
  const primaryHost = name.toLowerCase() === 'localhost' ? DEFAULT_HOST : name;
  const port = await listenOrExplain(app, primaryHost, options.port ?? DEFAULT_PORT, 'klvscope serve', (message, details, errno) =>
    new InspectionError('ERR_LISTEN_FAILED', message, { ...details, reason: errno ?? 'unknown' }),
  );
  const hosts = [primaryHost];
  if (primaryHost === DEFAULT_HOST) {
    const secondary = await listenQuietly(runtime.handler, IPV6_LOOPBACK, port);
    if (secondary) {
      runtime.extraServers.push(secondary);
      runtime.liveChannel.attach(secondary);
      hosts.push(IPV6_LOOPBACK);
    } else {
      app.log.debug({ host: IPV6_LOOPBACK, port }, 'not listening on ::1 (no IPv6 loopback, or the port is taken there)');
    }
  }
  const origins = hosts.map((h) => serviceUrl(h, port));
  const urls = origins.map((origin) => `${origin}${API_PREFIX}`);
  const signInUrl = dashboardSignInUrl(origins[0], runtime.apiKeyValue);
  return { app, url: urls[0], urls, port, dataDir: runtime.deps.store.dataDir, apiKey: runtime.deps.apiKey, signInUrl, fleet: runtime.deps.fleet?.connection.where ?? null, close: () => app.close() };
}

/** A second listener with the same handler; null when it cannot bind (a failure to add ::1 is not an error). */
function listenQuietly(handler: RequestListener, host: string, port: number): Promise<Server | null> {
  return new Promise((resolve) => {
    const server = createServer(handler);
    server.once('error', () => resolve(null));
    server.listen({ host, port }, () => resolve(server));
  });
}

/** Stops accepting connections and closes the idle ones; resolves once the last connection has ended. */
function stopAccepting(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
