/**
 * The Fastify options the streaming module and the relay share: a body
 * limit, warnings and errors on stderr without a line per request,
 * Fastify's own request errors answered with the project's JSON body, and
 * every connection closed at close.
 */
import { LogController, type FastifyHttpOptions } from 'fastify';
import type { Server } from 'node:http';
import { answerClientError } from './client-error.js';
import { sendError } from './error-response.js';

export function serviceFastifyOptions(bodyLimitBytes: number): FastifyHttpOptions<Server> {
  return {
    bodyLimit: bodyLimitBytes,
    logger: { level: 'warn', stream: process.stderr },
    logController: new LogController({ disableRequestLogging: true }),
    frameworkErrors: (error, request, reply) => {
      sendError(error, request, reply);
    },
    clientErrorHandler: answerClientError,
    // At close, every connection is cut, not only the idle ones: a browser opens spare connections that send no
    // request, and Node ends such a connection only at its headers timeout (60 s, checked every 30 s), which held
    // a closing module for up to 90 s. Nothing is lost: a command's answer has gone out before the module closes.
    forceCloseConnections: true,
  };
}
