/**
 * A connection that sends something Node cannot parse as HTTP never reaches
 * Fastify's routing: it is answered on the socket, still with the one error
 * body, then closed.
 */
import type { Socket } from 'node:net';
import { errorBody } from './error-response.js';

export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const body = JSON.stringify(errorBody('ERR_BAD_REQUEST', 'the request is not valid HTTP/1.1', { reason: error.code ?? 'unknown' }));
  socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
