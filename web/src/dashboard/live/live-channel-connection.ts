/**
 * The page's connection to the live channel: tRPC over WebSocket at
 * /api/v1/live (docs/live.md), the same channel `klvscope watch` reads. A
 * browser WebSocket cannot set the X-API-Key header, so the key goes in
 * tRPC's connection parameters: the first message on the socket, never in
 * the URL. tRPC's wsLink reconnects by itself when the socket drops and
 * resends the last tracked event id, so each subscription resumes without a
 * gap; the page shows the socket's state from `connectionState`.
 */
import { createTRPCUntypedClient, createWSClient, wsLink } from '@trpc/client';
import { API_PREFIX } from '../api-client.js';
import type { LiveFinding, LiveMetadataPacket, LiveStatistics } from './live-records.js';

export type ChannelState = { state: 'connecting' | 'open' | 'reconnecting' | 'closed'; problem: string | null };

export interface LiveChannelListener {
  finding(finding: LiveFinding): void;
  metadata(packet: LiveMetadataPacket): void;
  statistics(reading: LiveStatistics): void;
  state(state: ChannelState): void;
}

export interface LiveChannelConnection {
  close(): void;
}

/** Retries after 0.5, 1, 2, 4 s, then every 5 s: a restarted service is found again within seconds. */
const retryDelayMs = (attempt: number): number => Math.min(500 * 2 ** attempt, 5_000);

export function liveChannelUrl(location: Location): string {
  const url = new URL(`${API_PREFIX}/live`, location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

export function openLiveChannel(apiKey: string, listener: LiveChannelListener): LiveChannelConnection {
  return openChannel(apiKey, (state) => listener.state(state), (client, failed) => [
    client.subscription('findings', {}, { onData: trackedData<LiveFinding>((finding) => listener.finding(finding)), onError: failed('findings') }),
    client.subscription('metadata', {}, { onData: trackedData<LiveMetadataPacket>((packet) => listener.metadata(packet)), onError: failed('metadata') }),
    client.subscription('statistics', {}, { onData: trackedData<LiveStatistics>((reading) => listener.statistics(reading)), onError: failed('statistics') }),
  ]);
}

/** What a page subscribes to on an open channel; `failed(name)` is the onError of subscription `name`. */
export type ChannelSubscriptions = (client: ReturnType<typeof createTRPCUntypedClient>, failed: (what: string) => (error: Error) => void) => Array<{ unsubscribe(): void }>;

/** The socket, its state as the page shows it, and the subscriptions `subscribe` makes on it; close() ends them all. */
export function openChannel(apiKey: string, onState: (state: ChannelState) => void, subscribe: ChannelSubscriptions): LiveChannelConnection {
  let everOpened = false;
  let closed = false;
  const wsClient = createWSClient({
    url: liveChannelUrl(window.location),
    connectionParams: { apiKey },
    retryDelayMs,
    onOpen: () => {
      everOpened = true;
    },
  });
  const client = createTRPCUntypedClient({ links: [wsLink({ client: wsClient })] });
  const states = wsClient.connectionState.subscribe({
    next: (connection) => {
      if (closed) return;
      const problem = connection.error ? connection.error.message : null;
      if (connection.state === 'pending') onState({ state: 'open', problem: null });
      else if (connection.state === 'connecting') onState({ state: everOpened ? 'reconnecting' : 'connecting', problem });
      else onState({ state: 'closed', problem });
    },
  });
  const failed = (what: string) => (error: Error) => {
    if (!closed) onState({ state: 'closed', problem: `${what}: ${error.message}` });
  };
  // Tracked events arrive as { id, data }: the id is the channel's to resume from; the page needs the data.
  const subscriptions = subscribe(client, failed);
  return {
    close() {
      closed = true;
      for (const subscription of subscriptions) subscription.unsubscribe();
      states.unsubscribe();
      void wsClient.close();
    },
  };
}

/** The untyped client hands over a tracked event as `{ id, data }` (the router's types live in the gateway). */
export function trackedData<T>(handle: (data: T) => void): (event: unknown) => void {
  return (event) => handle((event as { data: T }).data);
}
