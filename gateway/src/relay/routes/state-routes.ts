/**
 * The six state-setting endpoints (201 or 400): a console that drives
 * channels itself writes the states and bitrates the relay shows. They
 * change the stored rows; a running channel's own state replaces what was
 * written at its next change (the relay knows better while it relays).
 */
import * as z from 'zod/mini';
import { listRelayChannels, setRelayChannelRuntime, type RelayOutputState } from '@klvscope/core/store';
import { defineRoute } from '../../http/service-route.js';
import { invalidFields } from '../../http/request-validation.js';
import { CHANNEL_STATES, OUTPUT_STATES } from '../channel-state.js';
import type { RelayRouteModule } from '../relay-context.js';
import type { RelayService } from '../relay-service.js';
import { channelSchema } from '../relay-schemas.js';

const channelState = z.enum(CHANNEL_STATES);
const outputState = z.enum(OUTPUT_STATES);
const channels = z.object({ channels: z.array(channelSchema) });

export const stateRoutes: RelayRouteModule = ({ service }) => [
  defineRoute({
    method: 'POST',
    path: '/setAllChannelStates',
    summary: 'sets the state of every channel: {state}',
    status: 201,
    schemas: { body: z.strictObject({ state: channelState }), response: channels },
    handle: async ({ body }) => {
      for (const row of listRelayChannels(service.db)) setRelayChannelRuntime(service.db, row.channelId, { state: body.state });
      return allChannels(service);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/setAllOutputStates',
    summary: 'sets the state of every output of every channel: {state, error?}',
    status: 201,
    schemas: { body: z.strictObject({ state: outputState, error: z._default(z.nullable(z.string()), null) }), response: channels },
    handle: async ({ body }) => {
      for (const row of listRelayChannels(service.db)) {
        setRelayChannelRuntime(service.db, row.channelId, { outputStates: row.outputs.map((url) => ({ url, state: body.state, error: body.error })) });
      }
      return allChannels(service);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/setChannelState',
    summary: 'sets a channel state and error: {channelId, state, error?}',
    status: 201,
    schemas: { body: z.strictObject({ channelId: z.string(), state: channelState, error: z._default(z.nullable(z.string()), null) }), response: channelSchema },
    handle: async ({ body }) => {
      service.channelRow(body.channelId);
      setRelayChannelRuntime(service.db, body.channelId, { state: body.state, error: body.error });
      await service.save();
      return service.view(service.channelRow(body.channelId));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/setChannelOutputStateAndError',
    summary: "sets one output's state and error: {channelId, output (its URL or index), state, error?}",
    status: 201,
    schemas: {
      body: z.strictObject({ channelId: z.string(), output: z.union([z.string(), z.int().check(z.minimum(0))]), state: outputState, error: z._default(z.nullable(z.string()), null) }),
      response: channelSchema,
    },
    handle: async ({ body }) => {
      const row = service.channelRow(body.channelId);
      const index = typeof body.output === 'number' ? body.output : row.outputs.indexOf(body.output);
      if (index < 0 || index >= row.outputs.length) throw invalidFields([{ in: 'body', field: 'output', message: `not an output of channel '${row.channelId}' (${row.outputs.length} output(s))` }]);
      const states: RelayOutputState[] = row.outputs.map((url, i) => row.outputStates.find((s) => s.url === url && i !== index) ?? { url, state: 'idle', error: null });
      states[index] = { url: row.outputs[index], state: body.state, error: body.error };
      setRelayChannelRuntime(service.db, row.channelId, { outputStates: states });
      await service.save();
      return service.view(service.channelRow(row.channelId));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/clearBitrateArray',
    summary: "clears the bitrate history of a channel ({channelId}) or of every channel ({})",
    status: 201,
    schemas: { body: z._default(z.strictObject({ channelId: z.optional(z.string()) }), {}), response: z.object({ cleared: z.array(z.string()) }) },
    handle: ({ body }) => {
      const rows = body.channelId === undefined ? listRelayChannels(service.db) : [service.channelRow(body.channelId)];
      for (const row of rows) service.meterOf(row.channelId)?.clear();
      return { cleared: rows.map((row) => row.channelId) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/updateChannelBitrate',
    summary: 'adds a bitrate reading to a channel: {channelId, inputBitrate, outputBitrate, time?}',
    status: 201,
    schemas: {
      body: z.strictObject({ channelId: z.string(), inputBitrate: z.number().check(z.nonnegative()), outputBitrate: z.number().check(z.nonnegative()), time: z.optional(z.iso.datetime()) }),
      response: z.object({ channelId: z.string(), time: z.string(), inputBitrate: z.number(), outputBitrate: z.number() }),
    },
    handle: ({ body }) => {
      const meter = service.meterFor(service.channelRow(body.channelId));
      const reading = { time: body.time ?? new Date().toISOString(), inputBitrate: body.inputBitrate, outputBitrate: body.outputBitrate };
      meter.accept(reading);
      return { channelId: body.channelId, ...reading };
    },
  }),
];

async function allChannels(service: RelayService): Promise<{ channels: unknown[] }> {
  await service.save();
  return { channels: listRelayChannels(service.db).map((row) => service.view(row)) };
}
