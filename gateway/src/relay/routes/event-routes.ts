/**
 * GET /api/events: the console's live feed as server-sent events (the spec
 * leaves events open; docs/relay.md "Events"). One `update` event at once
 * with everything, then one a second with what changed (console-feed.ts);
 * an update with nothing but its time says the relay is alive.
 */
import { defineRoute } from '../../http/service-route.js';
import { ConsoleFeed } from '../console-feed.js';
import type { RelayRouteModule } from '../relay-context.js';

export const EVENTS_INTERVAL_MS = 1000;

export const eventRoutes: RelayRouteModule = ({ service, detector }) => [
  defineRoute({
    method: 'GET',
    path: '/events',
    summary: 'server-sent events for a console: an `update` with every platform, bitrate history, detection and the server state, then each second one with only what changed',
    public: true,
    schemas: {},
    handle: ({ reply }) => {
      const feed = new ConsoleFeed(service, detector);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      const send = (): void => {
        raw.write(`event: update\ndata: ${JSON.stringify(feed.next())}\n\n`);
      };
      send();
      const timer = setInterval(send, EVENTS_INTERVAL_MS);
      // The response's close: the console went away (or the relay closes its connections).
      raw.once('close', () => clearInterval(timer));
      return reply;
    },
  }),
];
