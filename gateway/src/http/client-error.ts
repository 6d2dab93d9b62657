/**
 * A connection that sends something Node cannot parse as HTTP never reaches
 * Fastify's routing: it is answered on the socket, still with the one error
 * body, then closed. So are the connection limits' refusals that Node
 * detects itself (connection-limits.ts): headers or a request too slow,
 * headers too large.
 */
import type { Socket } from 'node:net';
import { errorBody } from './error-response.js';

interface ClientErrorAnswer {
  status: string;
  code: string;
  message: string;
}

const ANSWERS: Readonly<Record<string, ClientErrorAnswer>> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: '408 Request Timeout', code: 'ERR_REQUEST_TIMEOUT', message: 'the request did not arrive in time (its headers, or the whole of it)' },
  HPE_HEADER_OVERFLOW: { status: '431 Request Header Fields Too Large', code: 'ERR_HEADERS_TOO_LARGE', message: 'the request headers are larger than this service accepts' },
};

const NOT_HTTP: ClientErrorAnswer = { status: '400 Bad Request', code: 'ERR_BAD_REQUEST', message: 'the request is not valid HTTP/1.1' };

export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const answer = ANSWERS[error.code ?? ''] ?? NOT_HTTP;
  const body = JSON.stringify(errorBody(answer.code, answer.message, { reason: error.code ?? 'unknown' }));
  socket.end(`HTTP/1.1 ${answer.status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  // A client that never reads its answer must not hold the socket: it is cut once the answer has had its chance.
  socket.setTimeout(5_000, () => socket.destroy());
}
