/**
 * How the service says whether it is licensed (docs/licence.md "Demo
 * mode"): the `X-Klvscope-Licence: demo|licensed` header on every response,
 * and one log line at start and after each install or removal. A header
 * rather than a body field, so response schemas and cached payloads are the
 * same in both modes.
 */
import type { Logger } from '@klvscope/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { LicenceState, LicenceStatusReport } from '../licence/index.js';

const LICENCE_HEADER = 'x-klvscope-licence';

/** The licence state of each server with the header installed, for replies sent outside its hooks. */
const licenceOfServer = new WeakMap<FastifyInstance, LicenceState>();

/**
 * Adds the header on every reply Fastify sends: routes, errors (401, 403,
 * 404 included) and not-found answers. The verdict is taken as each
 * response leaves, so a licence that expires mid-run shows at once, and the
 * answer to an import already says `licensed`.
 */
export function installLicenceHeader(app: FastifyInstance, licence: LicenceState): void {
  licenceOfServer.set(app, licence);
  app.addHook('onSend', (_request, reply, payload, done) => {
    void reply.header(LICENCE_HEADER, licence.mode());
    done(null, payload);
  });
}

/**
 * The header on a reply that no hook sees: Fastify answers a bad URL escape
 * through `frameworkErrors` before routing, and runs no onSend hook for it.
 */
export function setLicenceHeader(reply: FastifyReply): void {
  const licence = licenceOfServer.get(reply.server);
  if (licence !== undefined) void reply.header(LICENCE_HEADER, licence.mode());
}

/** One line: the mode and why; `warn` in demo mode, so an unlicensed service shows in a quiet log. */
export function logLicenceMode(log: Logger, report: Pick<LicenceStatusReport, 'mode' | 'reason' | 'nodeId'>): void {
  const fields = { licenceMode: report.mode, nodeId: report.nodeId };
  if (report.mode === 'licensed') log.info(`licence: ${report.reason}`, fields);
  else log.warn(`licence: ${report.reason}`, fields);
}
