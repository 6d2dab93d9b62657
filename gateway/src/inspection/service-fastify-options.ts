/**
 * The Fastify options the streaming module and the relay share: a body
 * limit, warnings and errors on stderr without a line per request, and
 * Fastify's own request errors answered with the project's JSON body.
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
  };
}
