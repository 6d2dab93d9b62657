/**
 * The recent-source list (spec "Recent sources"): files and feeds opened
 * lately, newest first, as the catalog keeps them (file sessions add to it).
 * An id is the catalog row's number; an id that cannot be one names no
 * source either, so it is the same 404 as an unknown one.
 */
import * as z from 'zod/mini';
import { listRecentSources, removeRecentSource } from '@klvscope/core/store';
import { InspectionError } from '../inspection-error.js';
import { defineRoute, type RouteModule } from '../../http/service-route.js';

export const recentSourceSchema = z.object({
  id: z.string(),
  kind: z.enum(['file', 'udp', 'serial']),
  /** A file path, a UDP address or a serial device, as opened. */
  source: z.string(),
  lastUsedAt: z.string(),
});

export const recentSourcesSchema = z.object({ sources: z.array(recentSourceSchema) });

const SOURCE_ID = /^[1-9]\d{0,15}$/;

export const recentSourcesRoutes: RouteModule = (deps) => {
  const catalog = deps.store.catalog.db;
  return [
    defineRoute({
      method: 'GET',
      path: '/sources/recent',
      summary: 'recent source list, most recently used first',
      schemas: { response: recentSourcesSchema },
      handle: (): z.output<typeof recentSourcesSchema> => ({
        // Ids as strings: every id of the REST interface is a path segment.
        sources: listRecentSources(catalog).map((row) => ({ id: String(row.id), kind: row.kind, source: row.source, lastUsedAt: new Date(row.lastUsedMs).toISOString() })),
      }),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/sources/:id',
      summary: 'removes one recent source entry',
      schemas: { params: z.object({ id: z.string() }) },
      handle: async ({ params }) => {
        const id = SOURCE_ID.test(params.id) ? Number(params.id) : NaN;
        if (!Number.isSafeInteger(id) || !removeRecentSource(catalog, id)) {
          throw new InspectionError('ERR_SOURCE_NOT_FOUND', `no recent source with id '${params.id}'`, { id: params.id });
        }
        await deps.store.saveCatalog();
      },
    }),
  ];
};
