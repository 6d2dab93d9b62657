/**
 * The bounds every service puts on its connections (issue 35, hostile
 * clients; docs/hostile-clients.md): a client that sends its headers a byte
 * a second, uploads at a byte a second, sends headers of any size or opens
 * connections without end holds one connection for a bounded time, and
 * past a bound gets the project's JSON error body, then the connection closes.
 *
 * - headers must arrive within `headersTimeoutMs`, the whole request within
 *   `requestTimeoutMs` (Node checks both every `checkIntervalMs`): 408
 *   ERR_REQUEST_TIMEOUT (client-error.ts);
 * - headers larger than `maxHeaderBytes`: 431 ERR_HEADERS_TOO_LARGE;
 * - an idle keep-alive connection closes after `keepAliveTimeoutMs` (Node
 *   waits a second more than it advertises), unless a request has arrived
 *   meanwhile, and not at once after a busy loop: idle-connection-close.ts;
 * - past `maxConnections` open at once, a new connection is answered 503
 *   ERR_TOO_MANY_CONNECTIONS and closed at once, before anything is read:
 *   the connections already open are served as before;
 * - past `maxConnectionsPerAddress` open at once from one remote address, a
 *   new connection from that address is answered 503
 *   ERR_TOO_MANY_CONNECTIONS_FROM_ADDRESS and closed the same way, so one
 *   client's burst cannot take the whole cap: the rest of it stays for
 *   everyone else (see connection-shares.ts).
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { ConnectionShares } from './connection-shares.js';
import { errorBody, type ErrorBody } from './error-response.js';
import { installIdleConnectionClose } from './idle-connection-close.js';

export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxHeaderBytes: number;
  maxConnections: number;
  /** The share of `maxConnections` one remote address may hold at once. */
  maxConnectionsPerAddress: number;
  checkIntervalMs: number;
}

/**
 * 2,000 connections: twice the slow clients of issue 35, far below the
 * descriptors a process gets here (20,000). Half of them per address: one
 * client (issue 35's 1,000 slow clients) fits, yet leaves 1,000 to the rest.
 */
export const DEFAULT_CONNECTION_LIMITS: Readonly<ConnectionLimits> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
  maxConnections: 2_000,
  maxConnectionsPerAddress: 1_000,
  checkIntervalMs: 1_000,
});

/** An HTTP server for Fastify's `serverFactory`, with the limits above. */
export function createLimitedServer(handler: RequestListener, limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    handler,
  );
  installIdleConnectionClose(server, limits.keepAliveTimeoutMs);
  let open = 0;
  const shares = new ConnectionShares(limits.maxConnectionsPerAddress);
  server.on('connection', (socket: Socket) => {
    if (open >= limits.maxConnections) {
      refuseConnection(socket, errorBody('ERR_TOO_MANY_CONNECTIONS', `the service has ${limits.maxConnections} connections open, its limit: try again later`, { maxConnections: limits.maxConnections }));
      return;
    }
    const address = ConnectionShares.addressOf(socket);
    if (!shares.take(address)) {
      refuseConnection(
        socket,
        errorBody('ERR_TOO_MANY_CONNECTIONS_FROM_ADDRESS', `${address} has ${limits.maxConnectionsPerAddress} connections open to the service, the most one address may hold: close some or try again later`, {
          maxConnectionsPerAddress: limits.maxConnectionsPerAddress,
          address,
        }),
      );
      return;
    }
    open++;
    socket.once('close', () => {
      open--;
      shares.release(address);
    });
  });
  return server;
}

function refuseConnection(socket: Socket, error: ErrorBody): void {
  const body = JSON.stringify(error);
  socket.end(`HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${body}`);
  // A client that never reads must not hold the refused socket open either.
  socket.setTimeout(5_000, () => socket.destroy());
}
