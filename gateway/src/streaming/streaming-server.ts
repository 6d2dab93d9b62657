/**
 * The streaming module's HTTP surface (spec/streaming-module.md, default port
 * 4000, loopback unless a host is given): GET /info, GET /recorderState,
 * POST /command (HTTP Basic), the viewer's static files at `/`, the poster,
 * and one WebSocket per viewer at /stream. Every error is the project's one
 * JSON body. docs/streaming.md has every decision the spec leaves open.
 */
import type { IncomingMessage } from 'node:http';
import { createLimitedServer, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from '../http/connection-limits.js';
import type { Duplex } from 'node:stream';
import { fastify, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { WebSocketServer } from 'ws';
import * as z from 'zod/mini';
import { APP_VERSION } from '../app-version.js';
import { installErrorHandling } from '../http/error-response.js';
import { installJsonBodyParser } from '../http/json-body-parser.js';
import { serviceFastifyOptions } from '../http/service-fastify-options.js';
import { installHostHeaderGuard } from '../http/host-header-guard.js';
import { loopbackUpgradeRefusal, refuseUpgrade } from '../http/socket-upgrade-guard.js';
import { DEFAULT_HOST, isLoopbackHost } from '../http/loopback-host.js';
import { parseRouteInput } from '../http/request-validation.js';
import type { LicenceState } from '../licence/index.js';
import { DEMO_SOURCE_URL } from './demo-source.js';
import { credentialsMatch, credentialsOfHeader, type Credentials } from '../http/basic-credentials.js';
import { POSTER_FILE_NAME, POSTER_SVG } from './poster.js';
import type { StreamRecorder } from './stream-recorder.js';
import type { StreamingConfig } from './streaming-config.js';
import { StreamingError } from './streaming-error.js';
import { buildStreamingOpenApiDocument, STREAMING_OPENAPI_PATH } from './streaming-openapi-document.js';
import type { StreamingModule } from './streaming-module.js';
import type { StaticFiles } from '../http/static-files.js';
import { installMapTileRoutes, type ServedMapTiles } from '../http/map-tile-routes.js';
import { sendWebAppFile } from '../http/web-app-files.js';

/** Commands are a few dozen bytes. */
const BODY_LIMIT_BYTES = 16 * 1024;
export const STREAM_SOCKET_PATH = '/stream';
/** How long the viewers have to answer the close handshake when the module stops. */
const VIEWER_CLOSE_WAIT_MS = 1_000;
/** RFC 7235 4.1: the challenge a 401 carries. */
const CHALLENGE = 'Basic realm="klvscope streaming module", charset="UTF-8"';

const commandSchema = z.object({
  service: z.enum(['streamer', 'recorder']),
  command: z.enum(['start', 'stop', 'exit']),
  params: z.optional(z.string()),
});

export interface StreamingServerParts {
  config: StreamingConfig;
  module: StreamingModule;
  recorder: StreamRecorder;
  licence: LicenceState;
  credentials: Credentials;
  /** The viewer's files (web/dist/viewer), or null when they are not built. */
  viewer: StaticFiles | null;
  /** The map tiles of `--tiles` (GET /tiles), or null. */
  mapTiles?: ServedMapTiles | null;
  /** `streamer exit`: called after the answer has gone out. */
  onExit: () => void;
}

export interface StreamingServerOptions {
  host?: string;
  port: number;
  /** Timeouts and caps of its connections (connection-limits.ts); tests make them small. */
  connectionLimits?: Partial<ConnectionLimits>;
}

/** The Info object of GET /info: the spec's fields, then ours (docs/streaming.md). */
export function streamInfo(parts: StreamingServerParts): Record<string, unknown> {
  const { config, module, licence } = parts;
  const facts = module.facts;
  const status = licence.licenceStatus();
  return {
    activeConnections: module.viewerCount,
    channelName: config.channelName,
    concurrentClients: config.concurrentClients,
    demo: status.mode === 'demo',
    demoExpired: status.status === 'expired',
    missionName: module.missionName(),
    noKlv: facts.pmtSeen && facts.klvPids.size === 0,
    nodeInfo: licence.nodeId,
    poster: POSTER_FILE_NAME,
    recorderEnabled: config.recorderEnabled,
    url: config.captureDevice !== null ? `capture://${config.captureDevice}` : (config.source ?? DEMO_SOURCE_URL),
    useCapture: config.captureDevice !== null,
    version: APP_VERSION,
    videoBitrate: module.videoBitrate(),
    videoPassThrough: module.videoPassThrough(),
    videoResolution: module.videoResolution(),
    streaming: module.streaming,
    source: module.sourceStatusNow,
    videoCodec: facts.video?.codec ?? null,
    klvPids: [...facts.klvPids].map(([pid, carriage]) => ({ pid, carriage })),
    bitrateBps: module.rates.bitrateBps,
    klvRateHz: module.rates.klvRateHz,
    noPictureReason: module.noPictureReason(),
  };
}

export function createStreamingApp(parts: StreamingServerParts, options: StreamingServerOptions): FastifyInstance {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const app = fastify({
    ...serviceFastifyOptions(BODY_LIMIT_BYTES),
    serverFactory: (handler) => {
      const server = createLimitedServer(handler, { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits });
      server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => upgrade(request, socket, head));
      return server;
    },
  });

  // On loopback, a page of another site re-pointed at 127.0.0.1 (DNS rebinding) is refused by its Host header, and a socket opened by another site's page by its Origin; a module bound to a network address answers any name.
  const onLoopback = isLoopbackHost(options.host ?? DEFAULT_HOST);

  function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (request.url ?? '').split('?')[0];
    if (path !== STREAM_SOCKET_PATH) return refuseUpgrade(socket, { status: 404, code: 'ERR_ROUTE_NOT_FOUND', message: `no WebSocket endpoint at ${path}: the stream is at ${STREAM_SOCKET_PATH}` });
    const refusal = onLoopback ? loopbackUpgradeRefusal(request) : null;
    if (refusal !== null) return refuseUpgrade(socket, refusal);
    sockets.handleUpgrade(request, socket, head, (ws) => parts.module.addViewer(ws));
  }

  if (onLoopback) installHostHeaderGuard(app);
  installErrorHandling(app);
  installJsonBodyParser(app);

  app.get('/info', () => streamInfo(parts));
  app.get('/recorderState', () => parts.recorder.status());
  const openApi = buildStreamingOpenApiDocument(commandSchema, APP_VERSION);
  app.get(STREAMING_OPENAPI_PATH, () => openApi);
  // The credentials before the body is read: a caller without them learns nothing of the command's shape.
  app.post('/command', { onRequest: async (request, reply) => authenticate(request, reply, parts.credentials) }, async (request, reply) => {
    const { body } = parseRouteInput({ body: commandSchema }, request) as { body: z.output<typeof commandSchema> };
    return runCommand(parts, body, reply);
  });
  app.get(`/${POSTER_FILE_NAME}`, (_request, reply) => reply.type('image/svg+xml').header('cache-control', 'no-cache').send(POSTER_SVG));
  installMapTileRoutes(app, parts.mapTiles ?? null);
  app.get('/*', (request, reply) => serveViewerFile(parts.viewer, request, reply));
  app.addHook('preClose', async () => {
    // The viewers hear 1001 (going away); one that does not answer the close handshake in time is cut.
    await parts.module.close();
    await closedWithin(sockets, VIEWER_CLOSE_WAIT_MS);
    for (const client of sockets.clients) client.terminate();
    // The last packets reach the file, which is closed.
    await parts.recorder.stop();
  });
  return app;
}

/** Resolves once every socket has closed, or after `ms`. */
function closedWithin(sockets: WebSocketServer, ms: number): Promise<void> {
  const open = [...sockets.clients].filter((client) => client.readyState !== client.CLOSED);
  if (open.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    let left = open.length;
    for (const client of open) {
      client.once('close', () => {
        if (--left > 0) return;
        clearTimeout(timer);
        resolve();
      });
    }
  });
}

/** 401 with a challenge for a missing or wrong Authorization header. */
function authenticate(request: FastifyRequest, reply: FastifyReply, expected: Credentials): void {
  const given = credentialsOfHeader(request.headers.authorization);
  if (given !== null && credentialsMatch(given, expected)) return;
  void reply.header('www-authenticate', CHALLENGE);
  if (given === null) throw new StreamingError('ERR_CREDENTIALS_MISSING', "POST /command needs an Authorization header: 'Basic base64(user:password)' or 'Basic USER PASSWORD'");
  throw new StreamingError('ERR_CREDENTIALS_WRONG', 'the user or password is wrong');
}

async function runCommand(parts: StreamingServerParts, body: z.output<typeof commandSchema>, reply: FastifyReply): Promise<unknown> {
  const { module, recorder } = parts;
  if (body.service === 'streamer') {
    if (body.command === 'start') module.startStreaming();
    else if (body.command === 'stop') await module.stopStreaming();
    else {
      // The answer first, then the module ends.
      reply.raw.once('finish', () => parts.onExit());
      return { service: 'streamer', streaming: module.streaming, exiting: true };
    }
    return { service: 'streamer', streaming: module.streaming, source: module.sourceStatusNow };
  }
  if (body.command === 'exit') {
    throw new StreamingError('ERR_COMMAND_UNKNOWN', "'exit' goes with the service 'streamer' only (the combinations: streamer start|stop|exit, recorder start|stop)", { service: body.service, command: body.command });
  }
  return body.command === 'start' ? recorder.start() : recorder.stop();
}

function serveViewerFile(viewer: StaticFiles | null, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (viewer === null) {
    throw new StreamingError('ERR_VIEWER_NOT_BUILT', "the viewer is not built: run 'npm run build' (it makes web/dist/viewer)");
  }
  return sendWebAppFile(viewer, request.url, reply);
}
