/** GET /openapi.json (public): the OpenAPI document of the automation/export subset, built from the mounted routes. */
import { buildOpenApiDocument } from '../openapi-document.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';
import { mountedRoutesOf } from '../../http/route-registration.js';

export const openApiRoutes: RouteModule = (deps) => {
  let document: unknown = null;
  return [
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      summary: 'OpenAPI document of the automation/export subset',
      public: true,
      schemas: {},
      // Built on first request: the routes are all mounted by then.
      handle: ({ request }) => (document ??= buildOpenApiDocument(mountedRoutesOf(request.server), deps.appVersion)),
    }),
  ];
};
