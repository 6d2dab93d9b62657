/**
 * The DNS-rebinding guard of host-header-guard.ts for WebSocket upgrades,
 * which never reach Fastify's hooks. A browser lets any page open a
 * WebSocket to 127.0.0.1 (no CORS), but it always sends the page's Origin
 * (RFC 6455 4.1, item 8): a page of another site is refused by it, and a
 * rebound name by its Host, as HTTP refuses it.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './error-response.js';
import { isAllowedHostHeader, isLoopbackHost } from './loopback-host.js';

export interface UpgradeRefusal {
  status: 403 | 404;
  code: string;
  message: string;
}

/** Why an upgrade request is refused by the loopback guard, or null when its Host and Origin name loopback (or it sends no Origin: not a browser). */
export function loopbackUpgradeRefusal(request: IncomingMessage): UpgradeRefusal | null {
  const { host, origin } = request.headers;
  if (!isAllowedHostHeader(host)) {
    return { status: 403, code: 'ERR_HOST_HEADER_REFUSED', message: `the Host header '${host}' does not name the loopback interface: use 127.0.0.1, [::1] or localhost` };
  }
  if (origin !== undefined && !isLoopbackOrigin(origin)) {
    return { status: 403, code: 'ERR_ORIGIN_REFUSED', message: `a page of '${origin}' may not open this WebSocket: only pages served on the loopback interface may` };
  }
  return null;
}

/** Answers an upgrade request with a plain HTTP error carrying the project's JSON error body. */
export function refuseUpgrade(socket: Duplex, refusal: UpgradeRefusal): void {
  const body = JSON.stringify(errorBody(refusal.code, refusal.message));
  const reason = refusal.status === 404 ? 'Not Found' : 'Forbidden';
  socket.end(`HTTP/1.1 ${refusal.status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    // 'null' (a sandboxed page, a file) or garbage: no loopback page sends it.
    return false;
  }
}
