/**
 * One live inspection end to end, as a user runs it: a live session on a
 * UDP source, a tRPC WebSocket client subscribed to its findings, a TS file
 * replayed to the source paced by its PCR, then the session stopped. Used
 * on 127.0.0.1 by the tests here and, for multicast, inside a private
 * network namespace (scenarios/).
 */
import { replayFile } from '@klvscope/adapters';
import type { LiveSessionState } from '../../src/live/live-records.js';
import type { TestServer } from '../inspection/test-server.js';
import { connectLiveClient, type LiveClient } from './live-client.js';

export interface LiveInspection {
  client: LiveClient;
  /** The state DELETE /sessions/active answered with. */
  final: LiveSessionState;
  started: LiveSessionState;
}

export interface LiveInspectionOptions {
  /** The session's source, e.g. udp://127.0.0.1:PORT or udp://239.1.2.3:PORT. */
  source: string;
  /** Where the replay sends, e.g. udp://127.0.0.1:PORT. */
  destination: string;
  file: string;
  speed?: number;
  rtp?: boolean;
  /** Sends the file some other way instead of the replay (ffmpeg). */
  send?: () => Promise<void>;
}

export async function inspectLive(server: TestServer, options: LiveInspectionOptions): Promise<LiveInspection> {
  const client = await connectLiveClient(server.port, server.key);
  try {
    const response = await server.call('/sessions/live', { method: 'POST', body: { source: options.source } });
    if (response.status !== 201) throw new Error(`POST /sessions/live answered ${response.status}: ${response.text}`);
    const started = response.json as LiveSessionState;
    if (options.send) await options.send();
    else await replayFile(options.file, options.destination, { speed: options.speed ?? 8, rtp: options.rtp ?? false });
    // Datagrams still in the socket's buffer or the session's queue are read before the stop closes the source.
    await waitForQuiet(server, started.sessionId);
    const stopped = await server.call('/sessions/active', { method: 'DELETE' });
    if (stopped.status !== 200) throw new Error(`DELETE /sessions/active answered ${stopped.status}: ${stopped.text}`);
    const final = stopped.json as LiveSessionState;
    await client.until(() => client.findings.filter((f) => f.sessionId === final.sessionId).length >= final.counts.records, 10_000, `${final.counts.records} records`);
    return { client, final, started };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/** Waits until the session's received byte count stops growing for 300 ms. */
async function waitForQuiet(server: TestServer, sessionId: string): Promise<void> {
  let last = -1;
  for (let i = 0; i < 100; i++) {
    const state = (await server.call(`/sessions/${sessionId}`)).json as LiveSessionState;
    const bytes = state.received.bytes;
    if (bytes === last && bytes > 0) return;
    last = bytes;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
