/**
 * The zod schemas of the relay's bodies and answers: what the routes
 * validate with, and what the OpenAPI document of the docs page shows.
 */
import * as z from 'zod/mini';
import { parseUdpDestinationUrl, parseUdpSourceUrl } from '@klvscope/adapters';
import { MAX_RELAY_RECORD_ID, NO_RELAY_ALARMS } from '@klvscope/core/store';
import { CHANNEL_STATES, LOG_MESSAGE_TYPES, OUTPUT_STATES, SERVER_STATES } from './channel-state.js';

/** Ids name rows and appear in paths: visible ASCII without '/', '?' or '#'. */
const idText = z.string().check(z.regex(/^[A-Za-z0-9._~:@!$&'()*+,;=-]{1,100}$/, 'must be 1 to 100 letters, digits or URL-safe marks (no /, ? or #)'));

/** A URL the adapter accepts, or its own message naming what is wrong. */
function urlOf(parse: (url: string) => unknown, description: string): z.ZodMiniString {
  return z.string().check(
    z.superRefine((url, context) => {
      try {
        parse(url);
      } catch (error) {
        context.issues.push({ code: 'custom', message: (error as Error).message, input: url });
      }
    }),
    z.describe(description),
  );
}

export const sourceUrlSchema = urlOf(parseUdpSourceUrl, 'udp://GROUP:PORT, udp://SOURCE@GROUP:PORT or udp://HOST:PORT; options interface=ADDR, rcvbuf=BYTES, rtp=auto|on|off');
export const destinationUrlSchema = urlOf(parseUdpDestinationUrl, 'udp://HOST:PORT or udp://GROUP:PORT; options ttl=N, interface=ADDR');

/** An RFC 3339 date-time, with Z or an offset; stored in one UTC form (core's canonicalTime), so times compare in time order. */
const dateTime = (description: string): z.ZodMiniISODateTime => z.iso.datetime({ offset: true }).check(z.describe(description));

/** A record id: the range item paths take (15 digits), so that every row can be read, changed and deleted. */
const recordId = z.int().check(z.positive(), z.maximum(MAX_RELAY_RECORD_ID));

export const outputStateSchema = z.object({ url: z.string(), state: z.enum(OUTPUT_STATES), error: z.nullable(z.string()) });

/** A bitrate limit in bits per second of the input's TS bytes; null: none. */
const bitrateLimit = z._default(z.nullable(z.number().check(z.nonnegative(), z.maximum(10e9))), null);

/** A channel's alarm limits (docs/relay.md "Alarms"); all optional, none by default. Limits that cannot be met together are refused by alarm-limit-problems.ts. */
export const alarmsSchema = z.strictObject({
  minBitrate: bitrateLimit,
  maxBitrate: bitrateLimit,
  maxSilenceMs: z._default(z.nullable(z.int().check(z.positive(), z.maximum(86_400_000))), null),
  pids: z._default(z.array(z.strictObject({ pid: z.int().check(z.minimum(0), z.maximum(0x1fff)), minBitrate: bitrateLimit, maxBitrate: bitrateLimit })).check(z.maxLength(64)), []),
  windowSeconds: z._default(z.int().check(z.minimum(1), z.maximum(60), z.describe('bitrates are judged as the mean of this many one-second readings')), 1),
});

/** A channel as a platform's body gives it; what the relay keeps (state, outputState, error) may come back from a GET and is ignored. */
export const channelBodySchema = z.strictObject({
  channelId: z.optional(idText),
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  input: sourceUrlSchema,
  outputs: z._default(z.array(destinationUrlSchema).check(z.maxLength(16)), []),
  enabled: z._default(z.boolean(), true),
  repack: z._default(z.boolean().check(z.describe('re-pack into datagrams of 7 TS packets (default: datagrams pass unchanged)')), false),
  alarms: z._default(alarmsSchema, NO_RELAY_ALARMS),
  state: z.optional(z.string()),
  outputState: z.optional(z.unknown()),
  error: z.optional(z.nullable(z.string())),
});

export const channelSchema = z.object({
  channelId: z.string(),
  name: z.string(),
  input: z.string(),
  outputs: z.array(z.string()),
  enabled: z.boolean(),
  repack: z.boolean(),
  alarms: alarmsSchema,
  state: z.enum(CHANNEL_STATES),
  outputState: z.array(outputStateSchema),
  error: z.nullable(z.string()),
});

export const platformBodySchema = z.strictObject({
  id: z.optional(idText),
  createdAt: z.optional(dateTime('kept from the first write; set by the relay when absent; stored in UTC')),
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  description: z._default(z.string().check(z.maxLength(2000)), ''),
  channels: z._default(z.array(channelBodySchema).check(z.maxLength(64)), []),
});
export type PlatformBody = z.output<typeof platformBodySchema>;

export const platformSchema = z.object({ id: z.string(), createdAt: z.string(), name: z.string(), description: z.string(), channels: z.array(channelSchema) });

export const serverStatusBodySchema = z.strictObject({
  id: z.optional(recordId),
  startedAt: z.optional(dateTime('default: now; stored in UTC')),
  state: z.enum(SERVER_STATES),
  errorMessage: z._default(z.string(), ''),
});
export const serverStatusSchema = z.object({ id: z.number(), startedAt: z.string(), state: z.enum(SERVER_STATES), errorMessage: z.string() });

export const logMessageBodySchema = z.strictObject({
  id: z.optional(recordId),
  time: z.optional(dateTime('default: now; stored in UTC')),
  type: z.enum(LOG_MESSAGE_TYPES),
  message: z.string().check(z.maxLength(4000)),
});
export const logMessageSchema = z.object({ id: z.number(), time: z.string(), type: z.enum(LOG_MESSAGE_TYPES), message: z.string() });

export const idParams = z.strictObject({ id: idText });
export const numericIdParams = z.strictObject({ id: z.string().check(z.regex(/^[1-9]\d{0,14}$/, 'must be a positive whole number')) });
