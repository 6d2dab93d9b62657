/**
 * Vendor information, health, the machine's network interfaces, the key
 * check the console signs in with, and the licence upload (the licence
 * tokens of docs/licence.md, installed in the data folder the relay shares
 * with the other services).
 */
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import * as z from 'zod/mini';
import { APP_VERSION } from '../../app-version.js';
import { defineRoute } from '../../http/service-route.js';
import { licenceImportBodySchema } from '../../licence/index.js';
import { authStatusSchema } from '../../inspection/routes/auth-routes.js';
import { licenceStatusSchema } from '../../inspection/routes/licence-routes.js';
import type { RelayRouteModule } from '../relay-context.js';

export const COMPANY = Object.freeze({
  product: 'klvscope channel relay',
  version: APP_VERSION,
  vendor: 'klvscope',
  contact: 'https://github.com/klvscope/klvscope/issues',
});

const companySchema = z.object({ product: z.string(), version: z.string(), vendor: z.string(), contact: z.string(), licence: z.enum(['licensed', 'demo']) });
const nicSchema = z.object({ name: z.string(), address: z.string(), netmask: z.string(), family: z.enum(['IPv4', 'IPv6']), mac: z.string(), internal: z.boolean(), cidr: z.nullable(z.string()), up: z.boolean() });

export const systemRoutes: RelayRouteModule = ({ licence, apiKey }) => [
  defineRoute({
    method: 'GET',
    path: '/info',
    summary: 'vendor information (Company)',
    public: true,
    schemas: { response: companySchema },
    handle: () => ({ ...COMPANY, licence: licence.licenceStatus().mode }),
  }),
  defineRoute({
    method: 'GET',
    path: '/health',
    summary: 'OK (text) while the relay runs',
    public: true,
    schemas: { response: z.literal('OK') },
    handle: ({ reply }) => reply.type('text/plain; charset=utf-8').send('OK'),
  }),
  defineRoute({
    method: 'GET',
    path: '/nics',
    summary: "the machine's network interfaces: one entry per address (name, address, family, MAC, internal, up)",
    public: true,
    schemas: { response: z.array(nicSchema) },
    handle: () =>
      // One entry per address, as Node lists them; whether the link is up comes from sysfs (Node does not say).
      Object.entries(networkInterfaces()).flatMap(([name, addresses]) => (addresses ?? []).map((a) => ({ name, address: a.address, netmask: a.netmask, family: a.family, mac: a.mac, internal: a.internal, cidr: a.cidr, up: interfaceUp(name) }))),
  }),
  defineRoute({
    method: 'GET',
    path: '/auth/status',
    summary: 'the key check: 200 with the X-API-Key header carrying the key, 401 otherwise (even on loopback, where other reads are open)',
    schemas: { response: authStatusSchema },
    // Never public: reached only past the key guard, so the caller is authenticated (the inspection service's GET /auth/status).
    handle: (): z.output<typeof authStatusSchema> => ({ authEnabled: true, authenticated: true, header: 'X-API-Key', keySource: apiKey.source, keyFile: apiKey.filePath }),
  }),
  defineRoute({
    method: 'POST',
    path: '/server/uploadLicense',
    summary: 'installs a licence token {token} (422 ERR_LICENCE_INVALID when it is not valid for this node now)',
    status: 201,
    schemas: { body: licenceImportBodySchema, response: licenceStatusSchema },
    handle: async ({ body }) => {
      await licence.install(body.token);
      return licence.licenceStatus();
    },
  }),
];

/** /sys/class/net/NAME/operstate on Linux ('up', or 'unknown' for loopback, which is up while it has addresses). */
function interfaceUp(name: string): boolean {
  try {
    const state = readFileSync(`/sys/class/net/${name}/operstate`, 'utf8').trim();
    return state === 'up' || state === 'unknown';
  } catch {
    return true;
  }
}
