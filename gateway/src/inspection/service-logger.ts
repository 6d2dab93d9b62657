/** The kernel's Logger interface over Fastify's (pino) logger, so services built for the CLI log into the service's log. */
import type { Logger } from '@klvscope/core';
import type { FastifyBaseLogger } from 'fastify';

export function serviceLogger(log: FastifyBaseLogger): Logger {
  return {
    debug: (message, fields) => log.debug(fields ?? {}, message),
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, fields) => log.error(fields ?? {}, message),
  };
}
