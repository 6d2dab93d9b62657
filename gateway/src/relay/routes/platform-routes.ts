/**
 * Platforms as a generated CRUD resource at /api/platforms (json-server's
 * semantics, collection-query-params.ts), their channels created, changed
 * and removed through the `channels` array; the platform command; the
 * platform upload (validated whole before anything is written).
 */
import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { RELAY_PLATFORMS_TABLE, canonicalTime, deleteRelayPlatform, getRelayChannel, getRelayPlatform, listRelayChannels, listRelayPlatforms, putRelayPlatform, type RelayPlatformRow } from '@klvscope/core/store';
import { defineRoute } from '../../http/service-route.js';
import { invalidFields, parsePart, type FieldProblem } from '../../http/request-validation.js';
import { alarmLimitProblems } from '../alarm-limit-problems.js';
import { channelLoops } from '../channel-loops.js';
import { collectionQueryOf, collectionQuerySchema } from '../collection-query-params.js';
import type { RelayContext, RelayRouteModule } from '../relay-context.js';
import { RelayError } from '../relay-error.js';
import type { RelayService } from '../relay-service.js';
import { channelSchema, idParams, platformBodySchema, platformSchema, type PlatformBody } from '../relay-schemas.js';

export const TOTAL_COUNT_HEADER = 'X-Total-Count';
const platformCommandQuery = z.strictObject({ command: z.enum(['start', 'stop']) });
const uploadBodySchema = z.union([z.array(platformBodySchema), z.strictObject({ platforms: z.array(platformBodySchema) })]);

export const platformRoutes: RelayRouteModule = (context) => {
  const { service } = context;
  return [
    defineRoute({
      method: 'GET',
      path: '/platforms',
      summary: 'platforms with their channels: _limit, _page, _sort, _order, equality filters and _gte/_lte/_ne/_like; X-Total-Count',
      public: true,
      schemas: { query: collectionQuerySchema(RELAY_PLATFORMS_TABLE), response: z.array(platformSchema) },
      handle: ({ request, reply }) => {
        const { rows, total } = listRelayPlatforms(service.db, collectionQueryOf(RELAY_PLATFORMS_TABLE, request.query as Record<string, string>));
        void reply.header(TOTAL_COUNT_HEADER, String(total));
        return rows.map((row) => platformView(service, row));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/platforms',
      summary: 'creates a platform with its channels',
      status: 201,
      schemas: { body: platformBodySchema, response: platformSchema },
      handle: async ({ body }) => {
        if (body.id !== undefined && getRelayPlatform(service.db, body.id) !== null) throw invalidFields([{ in: 'body', field: 'id', message: `a platform '${body.id}' exists already` }]);
        return writePlatforms(context, [body], 'body')[0]().then((row) => platformView(service, row));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/platforms/:id',
      summary: 'one platform with its channels',
      public: true,
      schemas: { params: idParams, response: platformSchema },
      handle: ({ params }) => platformView(service, platformOrThrow(service, params.id)),
    }),
    defineRoute({
      method: 'PUT',
      path: '/platforms/:id',
      summary: 'replaces a platform: its channels become those of the body (removed ones stop; changed running ones restart)',
      schemas: { params: idParams, body: platformBodySchema, response: platformSchema },
      handle: async ({ params, body }) => {
        platformOrThrow(service, params.id);
        if (body.id !== undefined && body.id !== params.id) throw invalidFields([{ in: 'body', field: 'id', message: `differs from the path's '${params.id}'` }]);
        const row = await writePlatforms(context, [{ ...body, id: params.id }], 'body')[0]();
        return platformView(service, row);
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/platforms/:id',
      summary: "changes the fields given of a platform (json-server's merge: a `channels` given replaces the array whole); the result is validated as a PUT body",
      schemas: { params: idParams, body: z.record(z.string(), z.unknown()), response: platformSchema },
      handle: async ({ params, body }) => {
        const { id, createdAt, name, description, channels } = platformView(service, platformOrThrow(service, params.id));
        const merged = parsePart('body', platformBodySchema, { id, createdAt, name, description, channels, ...body });
        if (merged.id !== params.id) throw invalidFields([{ in: 'body', field: 'id', message: `differs from the path's '${params.id}'` }]);
        return platformView(service, await writePlatforms(context, [merged], 'body')[0]());
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/platforms/:id',
      summary: 'deletes a platform and its channels (stopped first)',
      schemas: { params: idParams },
      handle: async ({ params }) => {
        const platform = platformOrThrow(service, params.id);
        await service.deleteChannels(platform.channels.map((c) => c.channelId));
        deleteRelayPlatform(service.db, params.id);
        await service.save();
        return undefined;
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/platforms/:id/command',
      summary: 'starts (its enabled channels) or stops (all its channels) a platform',
      schemas: { params: idParams, query: platformCommandQuery, response: z.object({ id: z.string(), command: z.string(), channels: z.array(channelSchema) }) },
      handle: async ({ params, query }) => ({ id: params.id, command: query.command, channels: await service.platformCommand(params.id, query.command) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/platforms/upload',
      summary: 'uploads platforms with their channels (an array, or {platforms: [...]}); all validated before any is written; existing ids are replaced',
      status: 201,
      schemas: { body: uploadBodySchema, response: z.array(platformSchema) },
      handle: async ({ body }) => {
        const platforms = Array.isArray(body) ? body : body.platforms;
        const writes = writePlatforms(context, platforms, Array.isArray(body) ? '' : 'platforms');
        const rows: RelayPlatformRow[] = [];
        for (const write of writes) rows.push(await write());
        return rows.map((row) => platformView(service, row));
      },
    }),
  ];
};

function platformOrThrow(service: RelayService, id: string): RelayPlatformRow {
  const platform = getRelayPlatform(service.db, id);
  if (platform === null) throw new RelayError('ERR_PLATFORM_NOT_FOUND', `no platform '${id}'`, { id });
  return platform;
}

export function platformView(service: RelayService, row: RelayPlatformRow): z.output<typeof platformSchema> {
  return { id: row.id, createdAt: row.createdAt, name: row.name, description: row.description, channels: row.channels.map((c) => service.view(c)) as z.output<typeof channelSchema>[] };
}

/**
 * Checks every platform's channel ids (unique in the request, not another
 * platform's) before anything is written, then returns one write per
 * platform. `at` is where the platforms are in the body, for the 400.
 */
function writePlatforms(context: RelayContext, bodies: readonly PlatformBody[], at: string): Array<() => Promise<RelayPlatformRow>> {
  const { service } = context;
  const problems: FieldProblem[] = [];
  const seen = new Map<string, string>();
  const seenPlatforms = new Map<string, string>();
  const planned = bodies.map((body, p) => {
    const id = body.id ?? randomUUID();
    const where = at === 'body' ? '' : at === '' ? `[${p}].` : `${at}[${p}].`;
    // One upload names a platform once: a second would silently replace the first.
    if (seenPlatforms.has(id)) problems.push({ in: 'body', field: `${where}id`, message: `'${id}' is given twice (also at ${seenPlatforms.get(id)})` });
    seenPlatforms.set(id, `${where}id`);
    const channels = body.channels.map((channel, c) => {
      const channelId = channel.channelId ?? randomUUID();
      const field = `${where}channels[${c}].channelId`;
      const owner = getRelayChannel(service.db, channelId)?.platformId;
      if (seen.has(channelId)) problems.push({ in: 'body', field, message: `'${channelId}' is given twice (also at ${seen.get(channelId)})` });
      else if (owner !== undefined && owner !== id) problems.push({ in: 'body', field, message: `'${channelId}' is a channel of the platform '${owner}'` });
      seen.set(channelId, field);
      problems.push(...alarmLimitProblems(channel.alarms, `${where}channels[${c}].alarms`));
      return { channelId, name: channel.name, input: channel.input, outputs: channel.outputs, enabled: channel.enabled, repack: channel.repack, alarms: channel.alarms };
    });
    return { body, id, channels, where };
  });
  if (problems.length === 0) {
    // Loops across the whole configuration as it would be: the stored channels of other platforms and those of the request.
    const writing = new Set(planned.map((p) => p.id));
    const stored = listRelayChannels(service.db).filter((c) => !writing.has(c.platformId)).map((c) => ({ ...c, field: null }));
    const requested = planned.flatMap(({ channels }, p) => channels.map((c, i) => ({ ...c, field: `${planned[p].where}channels[${i}]` })));
    problems.push(...channelLoops([...requested, ...stored]));
  }
  if (problems.length > 0) throw invalidFields(problems);
  return planned.map(({ body, id, channels }) => async () => {
    const existing = getRelayPlatform(service.db, id);
    const given = body.createdAt === undefined ? null : canonicalTime(body.createdAt);
    const createdAt = existing?.createdAt ?? given ?? new Date().toISOString();
    const removed = putRelayPlatform(service.db, { id, createdAt, name: body.name, description: body.description }, channels);
    await service.channelsChanged(removed, id);
    await service.save();
    return getRelayPlatform(service.db, id) as RelayPlatformRow;
  });
}
