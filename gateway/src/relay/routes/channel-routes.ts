/**
 * Channel commands (start, stop, detect) in the three forms the spec lists
 * (body, query, path), channel deletion, bitrate readings and stream
 * detection results.
 */
import * as z from 'zod/mini';
import { getRelayChannel } from '@klvscope/core/store';
import { defineRoute } from '../../http/service-route.js';
import { invalidFields } from '../../http/request-validation.js';
import type { RelayRouteModule } from '../relay-context.js';
import { RelayError } from '../relay-error.js';
import type { RelayService } from '../relay-service.js';
import { channelSchema, idParams } from '../relay-schemas.js';
import { DEFAULT_DETECT_MS, MAX_DETECT_MS, type StreamDetector } from '../stream-detector.js';
import { channelBitrates } from '../channel-bitrates.js';

const command = z.enum(['start', 'stop', 'detect']);
const durationMs = z.int().check(z.minimum(100), z.maximum(MAX_DETECT_MS), z.describe(`detect: how long to listen, in ms (default ${DEFAULT_DETECT_MS})`));
const commandBody = z.optional(z.strictObject({ channelId: z.optional(z.string()), command: z.optional(command), durationMs: z.optional(durationMs) }));
const commandQuery = z.strictObject({ channelId: z.optional(z.string()), id: z.optional(z.string()), command: z.optional(command), durationMs: z.optional(z.string().check(z.regex(/^\d+$/, 'must be a whole number'))) });
const channelIdQuery = z.strictObject({ channelId: z.optional(z.string()) });

export const channelRoutes: RelayRouteModule = ({ service, detector }) => [
  defineRoute({
    method: 'POST',
    path: '/channels/command',
    summary: 'starts, stops or detects a channel: body {channelId, command, durationMs?} (or the same in the query)',
    schemas: { body: commandBody, query: commandQuery },
    handle: ({ body, query }) => {
      const channelId = body?.channelId ?? query.channelId ?? query.id;
      const name = body?.command ?? query.command;
      const missing = [channelId === undefined ? 'channelId' : null, name === undefined ? 'command' : null].filter((f) => f !== null);
      if (missing.length > 0) throw invalidFields(missing.map((field) => ({ in: 'body', field, message: 'required (in the body or the query)' })));
      return runCommand(service, detector, channelId as string, name as z.output<typeof command>, body?.durationMs ?? numberOrUndefined(query.durationMs));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/channels/:id/command',
    summary: 'starts, stops or detects a channel: the id in the path, ?command=start|stop|detect',
    schemas: { params: idParams, query: z.strictObject({ command, durationMs: z.optional(z.string().check(z.regex(/^\d+$/, 'must be a whole number'))) }) },
    handle: ({ params, query }) => runCommand(service, detector, params.id, query.command, numberOrUndefined(query.durationMs)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/channels/:channelId',
    summary: 'deletes a channel (stopped first) from its platform',
    schemas: { params: z.strictObject({ channelId: z.string() }) },
    handle: async ({ params }) => {
      service.channelRow(params.channelId);
      await service.deleteChannels([params.channelId]);
      detector.forget(params.channelId);
      service.log('stopped', `channel ${params.channelId} deleted`);
      await service.save();
      return undefined;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/bitrates',
    summary: 'per channel: input and output bitrates of the last second, per output and per input PID, and the history (one reading per second, 5 minutes)',
    public: true,
    schemas: { query: channelIdQuery },
    handle: ({ query }) => channelBitrates(service, query.channelId),
  }),
  defineRoute({
    method: 'GET',
    path: '/streamDetectionInfo',
    summary: 'the latest stream detection of each channel (or of one)',
    public: true,
    schemas: { query: channelIdQuery },
    handle: ({ query }) => {
      if (query.channelId !== undefined) service.channelRow(query.channelId);
      return detector.results(query.channelId);
    },
  }),
];

async function runCommand(service: RelayService, detector: StreamDetector, channelId: string, name: 'start' | 'stop' | 'detect', durationMs: number | undefined): Promise<unknown> {
  if (getRelayChannel(service.db, channelId) === null) throw new RelayError('ERR_CHANNEL_NOT_FOUND', `no channel '${channelId}'`, { channelId });
  if (durationMs !== undefined && (durationMs < 100 || durationMs > MAX_DETECT_MS)) throw invalidFields([{ in: 'query', field: 'durationMs', message: `must be from 100 to ${MAX_DETECT_MS}` }]);
  if (name === 'detect') return { channelId, command: name, detection: await detector.detect(channelId, durationMs ?? DEFAULT_DETECT_MS) };
  const channel: z.output<typeof channelSchema> = (name === 'start' ? await service.startChannel(channelId) : await service.stopChannel(channelId)) as z.output<typeof channelSchema>;
  return { channelId, command: name, channel };
}

function numberOrUndefined(text: string | undefined): number | undefined {
  return text === undefined ? undefined : Number(text);
}
