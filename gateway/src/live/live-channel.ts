/**
 * Serves the live router (live-router.ts) over WebSocket on the inspection
 * service's own port, at LIVE_CHANNEL_PATH. The upgrade request is held to
 * the REST rules: a Host header naming loopback only (DNS rebinding), and
 * the API key, given as the tRPC connection parameter `apiKey` (what
 * `createWSClient({ connectionParams })` sends) or the `X-API-Key` header
 * of the upgrade. A wrong or missing key gets an UNAUTHORIZED error and the
 * connection is closed.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { TRPCError } from '@trpc/server';
import { applyWSSHandler } from '@trpc/server/adapters/ws';
import { WebSocketServer } from 'ws';
import { API_KEY_HEADER } from '../http/api-key.js';
import { apiKeyMatcher } from '../http/api-key-guard.js';
import { errorBody } from '../http/error-response.js';
import { isAllowedHostHeader } from '../http/loopback-host.js';
import { LIVE_CHANNEL_PATH } from '../inspection/service-address.js';
import { liveRouter, type LiveContext } from './live-router.js';
import type { LiveSessions } from './live-sessions.js';
import type { ProbeHub } from '../probe/probe-hub.js';

/** Client messages are subscription requests: small. */
const MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * A subscriber whose unsent data passes this has stopped reading (issue 35):
 * it is cut rather than held in memory, as a viewer of the stream is
 * (viewer-fanout.ts). tRPC's own keep-alive cuts a client silent for 35 s,
 * but a subscription sends without bound in that time.
 */
export const LIVE_CHANNEL_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const BUFFER_CHECK_INTERVAL_MS = 1_000;

export interface LiveChannelBounds {
  maxBufferedBytes: number;
  checkIntervalMs: number;
}

export interface LiveChannel {
  /** Serves the channel on this HTTP server's upgrade requests. */
  attach(server: Server): void;
  /** Closes every connection (clients are told to reconnect) and stops accepting. */
  close(): Promise<void>;
}

export function createLiveChannel(live: LiveSessions, apiKey: string, probes: ProbeHub | null = null, bounds: Partial<LiveChannelBounds> = {}): LiveChannel {
  const matches = apiKeyMatcher(apiKey);
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const maxBufferedBytes = bounds.maxBufferedBytes ?? LIVE_CHANNEL_MAX_BUFFERED_BYTES;
  const sweep = setInterval(() => {
    // A close handshake would queue behind the unread data: the connection is cut.
    for (const client of wss.clients) if (client.bufferedAmount > maxBufferedBytes) client.terminate();
  }, bounds.checkIntervalMs ?? BUFFER_CHECK_INTERVAL_MS);
  sweep.unref();
  const handler = applyWSSHandler({
    wss,
    router: liveRouter,
    keepAlive: { enabled: true, pingMs: 30_000, pongWaitMs: 5_000 },
    createContext: ({ req, info }): LiveContext => {
      const given = info.connectionParams?.apiKey ?? req.headers[API_KEY_HEADER];
      if (typeof given !== 'string' || given === '' || !matches(given)) {
        throw new TRPCError({ code: 'UNAUTHORIZED', message: 'the live channel needs the API key of this service (connection parameter apiKey, or the X-API-Key header)' });
      }
      return { live, probes };
    },
  });

  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== LIVE_CHANNEL_PATH) return refuse(socket, 404, `no WebSocket endpoint at ${path}: the live channel is ${LIVE_CHANNEL_PATH}`);
    const host = request.headers.host;
    if (!isAllowedHostHeader(host)) return refuse(socket, 403, `the Host header '${host}' does not name the loopback interface`);
    wss.handleUpgrade(request, socket, head, (client) => wss.emit('connection', client, request));
  };

  return {
    attach(server) {
      server.on('upgrade', upgrade);
    },
    async close() {
      clearInterval(sweep);
      handler.broadcastReconnectNotification();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** Answers an upgrade request with a plain HTTP error carrying the JSON error body of the REST surface. */
function refuse(socket: Duplex, status: 403 | 404, message: string): void {
  const code = status === 404 ? 'ERR_ROUTE_NOT_FOUND' : 'ERR_HOST_HEADER_REFUSED';
  const body = JSON.stringify(errorBody(code, message));
  const reason = status === 404 ? 'Not Found' : 'Forbidden';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
