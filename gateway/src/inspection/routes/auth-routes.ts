/**
 * GET /auth/status. Protected like every endpoint the spec does not list as
 * public: a caller without the key gets the 401 body, whose details say
 * `authEnabled: true, authenticated: false`; a caller with it gets the same
 * fields here, and where the key comes from.
 */
import * as z from 'zod/mini';
import { defineRoute, type RouteModule } from '../../http/service-route.js';

export const authStatusSchema = z.object({
  authEnabled: z.boolean(),
  authenticated: z.boolean(),
  header: z.literal('X-API-Key'),
  /** 'file': the data folder's api-key file; 'environment': KLVSCOPE_API_KEY; 'option': given by the embedding program. */
  keySource: z.enum(['file', 'environment', 'option']),
  keyFile: z.nullable(z.string()),
});

export const authRoutes: RouteModule = (deps) => [
  defineRoute({
    method: 'GET',
    path: '/auth/status',
    summary: 'current REST auth status',
    schemas: { response: authStatusSchema },
    // Reached only past the key guard: the caller is authenticated.
    handle: (): z.output<typeof authStatusSchema> => ({ authEnabled: true, authenticated: true, header: 'X-API-Key', keySource: deps.apiKey.source, keyFile: deps.apiKey.filePath }),
  }),
];
