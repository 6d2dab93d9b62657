/**
 * A real tRPC WebSocket client of a hub's live channel, following every
 * probe's findings and statistics (the fleet subscriptions), noting when
 * each finding arrived.
 */
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import WebSocket from 'ws';
import { LIVE_CHANNEL_PATH } from '../../src/inspection/service-address.js';
import type { LiveRouter } from '../../src/live/live-router.js';
import type { ProbeFinding, ProbeStatistics } from '../../src/probe/probe-records.js';

export interface FleetClient {
  findings: ProbeFinding[];
  /** Date.now() when each finding arrived, same index. */
  arrivals: number[];
  statistics: ProbeStatistics[];
  errors: Error[];
  until(predicate: () => boolean, timeoutMs: number, what: string): Promise<void>;
  close(): Promise<void>;
}

export async function connectFleetClient(url: string, apiKey: string, input: { probes?: string[] } = {}): Promise<FleetClient> {
  const wsClient = createWSClient({
    url: `${new URL(url).origin.replace(/^http/, 'ws')}${LIVE_CHANNEL_PATH}`,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    connectionParams: { apiKey },
    retryDelayMs: () => 250,
  });
  const trpc = createTRPCClient<LiveRouter>({ links: [wsLink({ client: wsClient })] });
  const client: FleetClient = {
    findings: [],
    arrivals: [],
    statistics: [],
    errors: [],
    async until(predicate, timeoutMs, what) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (client.errors.length > 0) throw client.errors[0];
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      for (const subscription of subscriptions) subscription.unsubscribe();
      await wsClient.close();
    },
  };
  const onError = (error: Error): void => {
    client.errors.push(error);
  };
  const subscriptions = [
    trpc.fleetFindings.subscribe(input, {
      onData: ({ data }) => {
        client.arrivals.push(Date.now());
        client.findings.push(data);
      },
      onError,
    }),
    trpc.fleetStatistics.subscribe(input, { onData: ({ data }) => client.statistics.push(data as ProbeStatistics), onError }),
  ];
  // The subscriptions are registered once the server has the connection parameters: a query round trip says so.
  await trpc.probes.query();
  return client;
}
