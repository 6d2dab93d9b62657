/**
 * The generated CRUD endpoints of the two record collections,
 * /api/serverStatus and /api/logMessages: the collection GET with
 * json-server's query words and X-Total-Count, POST (201, the created row),
 * GET, PUT (200), PATCH (200, json-server's merge) and DELETE (204) by
 * numeric id, 404 for an unknown one. Times are stored in one UTC form, now
 * when a body gives none.
 */
import * as z from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import { MAX_RELAY_RECORD_ID, RELAY_LOG_MESSAGES, RELAY_SERVER_STATUS, canonicalTime, deleteRelayRecord, getRelayRecord, insertRelayRecord, listRelayRecords, replaceRelayRecord, type RelayRecordCollection } from '@klvscope/core/store';
import { defineRoute, type InspectionRoute } from '../../http/service-route.js';
import { invalidFields, parsePart } from '../../http/request-validation.js';
import { collectionQueryOf, collectionQuerySchema } from '../collection-query-params.js';
import type { RelayRouteModule } from '../relay-context.js';
import { RelayError } from '../relay-error.js';
import type { RelayService } from '../relay-service.js';
import { logMessageBodySchema, logMessageSchema, numericIdParams, serverStatusBodySchema, serverStatusSchema } from '../relay-schemas.js';
import { TOTAL_COUNT_HEADER } from './platform-routes.js';

export const recordRoutes: RelayRouteModule = ({ service }) => [
  ...collectionRoutes(service, '/serverStatus', 'server status records', 'server status record', 'startedAt', RELAY_SERVER_STATUS, serverStatusBodySchema, serverStatusSchema),
  ...collectionRoutes(service, '/logMessages', 'log messages', 'log message', 'time', RELAY_LOG_MESSAGES, logMessageBodySchema, logMessageSchema),
];

function collectionRoutes<R extends { id: number }>(
  service: RelayService,
  path: string,
  what: string,
  one: string,
  timeField: string,
  collection: RelayRecordCollection<R>,
  bodySchema: $ZodType,
  rowSchema: $ZodType,
): InspectionRoute[] {
  const recordOf = (body: unknown): Omit<R, 'id'> => {
    const { id: _id, ...record } = body as R & Record<string, string | undefined>;
    const time = record[timeField];
    // The schema took an RFC 3339 date-time: stored in the one form whose text order is time order.
    return { ...record, [timeField]: time === undefined ? new Date().toISOString() : canonicalTime(time) };
  };
  const notFound = (id: number): RelayError => new RelayError('ERR_RECORD_NOT_FOUND', `no ${one} ${id}`, { id });
  return [
    defineRoute({
      method: 'GET',
      path,
      summary: `${what}: _limit, _page, _sort, _order, equality filters and _gte/_lte/_ne/_like; X-Total-Count`,
      public: true,
      schemas: { query: collectionQuerySchema(collection.table), response: z.array(rowSchema) },
      handle: ({ request, reply }) => {
        const { rows, total } = listRelayRecords(service.db, collection, collectionQueryOf(collection.table, request.query as Record<string, string>));
        void reply.header(TOTAL_COUNT_HEADER, String(total));
        return rows;
      },
    }),
    defineRoute({
      method: 'POST',
      path,
      summary: `creates one of the ${what} (201 with the row as stored)`,
      status: 201,
      schemas: { body: bodySchema, response: rowSchema },
      handle: async ({ body }) => {
        const id = (body as { id?: number }).id;
        if (id !== undefined && getRelayRecord(service.db, collection, id) !== null) throw invalidFields([{ in: 'body', field: 'id', message: `${id} exists already` }]);
        const row = insertRelayRecord(service.db, collection, recordOf(body), id);
        if (row === null) throw invalidFields([{ in: 'body', field: 'id', message: `no id is left to make: ids end at ${MAX_RELAY_RECORD_ID}` }]);
        await service.save();
        return row;
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${path}/:id`,
      summary: `one of the ${what}`,
      public: true,
      schemas: { params: numericIdParams, response: rowSchema },
      handle: ({ params }) => getRelayRecord(service.db, collection, Number(params.id)) ?? throwing(notFound(Number(params.id))),
    }),
    defineRoute({
      method: 'PUT',
      path: `${path}/:id`,
      summary: `replaces one of the ${what}`,
      schemas: { params: numericIdParams, body: bodySchema, response: rowSchema },
      handle: async ({ params, body }) => {
        const id = Number(params.id);
        const given = (body as { id?: number }).id;
        if (given !== undefined && given !== id) throw invalidFields([{ in: 'body', field: 'id', message: `differs from the path's ${id}` }]);
        const row = replaceRelayRecord(service.db, collection, id, recordOf(body)) ?? throwing(notFound(id));
        await service.save();
        return row;
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: `${path}/:id`,
      summary: `changes the fields given of one of the ${what} (json-server's merge; the result is validated as a PUT body)`,
      schemas: { params: numericIdParams, body: z.record(z.string(), z.unknown()), response: rowSchema },
      handle: async ({ params, body }) => {
        const id = Number(params.id);
        const existing = getRelayRecord(service.db, collection, id) ?? throwing(notFound(id));
        const merged = parsePart('body', bodySchema, { ...existing, ...body });
        if ((merged as { id: number }).id !== id) throw invalidFields([{ in: 'body', field: 'id', message: `differs from the path's ${id}` }]);
        const row = replaceRelayRecord(service.db, collection, id, recordOf(merged)) ?? throwing(notFound(id));
        await service.save();
        return row;
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${path}/:id`,
      summary: `deletes one of the ${what}`,
      schemas: { params: numericIdParams },
      handle: async ({ params }) => {
        if (!deleteRelayRecord(service.db, collection, Number(params.id))) throw notFound(Number(params.id));
        await service.save();
        return undefined;
      },
    }),
  ];
}

function throwing(error: Error): never {
  throw error;
}
