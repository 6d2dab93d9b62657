/**
 * The licence endpoints (spec "Authentication, licence, configuration";
 * docs/licence.md "Endpoints"): status, details, node id, import and
 * removal, all over the service's one LicenceState. `/license/import` and
 * `POST /config/license` both install a token; they differ only in what they
 * answer (the status report or the details), as their GET twins do.
 */
import * as z from 'zod/mini';
import { licenceImportBodySchema } from '../../licence/index.js';
import { logLicenceMode } from '../licence-announcement.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';

export const licenceStatusSchema = z.object({
  mode: z.enum(['licensed', 'demo']),
  /** `none` when no token is installed, else the verdict on the installed one. */
  status: z.enum(['none', 'valid', 'malformed', 'bad-signature', 'wrong-node', 'expired']),
  licensee: z.nullable(z.string()),
  features: z.array(z.string()),
  expiresAt: z.nullable(z.string()),
  nodeId: z.string(),
  reason: z.string(),
});

export const licenceDetailsSchema = z.extend(licenceStatusSchema, {
  issuedAt: z.nullable(z.string()),
  installed: z.boolean(),
  publicKey: z.object({ source: z.enum(['built-in', 'configured']), fingerprint: z.string() }),
});

export const licenceRemovalSchema = z.extend(licenceDetailsSchema, { removed: z.boolean() });

export const nodeInfoSchema = z.object({ nodeId: z.string() });

export const licenceRoutes: RouteModule = (deps) => {
  const { licence, log } = deps;
  /** Installs, then says the new mode in the log (docs/licence.md "Demo mode" 3). */
  const install = async (token: string): Promise<void> => {
    logLicenceMode(log, await licence.install(token));
  };
  return [
    defineRoute({
      method: 'GET',
      path: '/license',
      summary: 'current licence status',
      schemas: { response: licenceStatusSchema },
      handle: () => licence.licenceStatus(),
    }),
    defineRoute({
      method: 'POST',
      path: '/license/import',
      summary: 'imports a licence token (422 ERR_LICENCE_INVALID when it is not valid for this node now)',
      schemas: { body: licenceImportBodySchema, response: licenceStatusSchema },
      handle: async ({ body }) => {
        await install(body.token);
        return licence.licenceStatus();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/config/nodeinfo',
      summary: 'node identifier used for licensing',
      schemas: { response: nodeInfoSchema },
      handle: (): z.output<typeof nodeInfoSchema> => ({ nodeId: licence.nodeId }),
    }),
    defineRoute({
      method: 'GET',
      path: '/config/license',
      summary: 'detailed licence information',
      schemas: { response: licenceDetailsSchema },
      handle: () => licence.licenceDetails(),
    }),
    defineRoute({
      method: 'POST',
      path: '/config/license',
      summary: 'imports a licence token (422 ERR_LICENCE_INVALID when it is not valid for this node now)',
      schemas: { body: licenceImportBodySchema, response: licenceDetailsSchema },
      handle: async ({ body }) => {
        await install(body.token);
        return licence.licenceDetails();
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/config/license',
      summary: 'removes the installed licence (idempotent: `removed` says whether there was one)',
      schemas: { response: licenceRemovalSchema },
      handle: async (): Promise<z.output<typeof licenceRemovalSchema>> => {
        const removed = await licence.remove();
        const details = licence.licenceDetails();
        logLicenceMode(log, details);
        return { removed, ...details };
      },
    }),
  ];
};
