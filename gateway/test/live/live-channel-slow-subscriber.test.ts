/**
 * Issue 35, a tRPC subscriber that never reads: the live channel on a real
 * HTTP server and real sockets, with a real event log behind its
 * `statistics` subscription (the sessions reduced to the one session that
 * holds it, as live-channel.test.ts reduces them to none). One subscriber
 * stops reading (its TCP socket paused); the channel cuts it once its
 * unsent data passes the bound, well before tRPC's keep-alive would (35 s),
 * while a subscriber that reads gets every event.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { until } from '../../../test-support/until.js';
import { LIVE_CHANNEL_PATH } from '../../src/inspection/service-address.js';
import { createLiveChannel, type LiveChannel } from '../../src/live/live-channel.js';
import { LiveEventLog } from '../../src/live/live-event-log.js';
import type { LiveSessions } from '../../src/live/live-sessions.js';
import { connectLiveClient } from './live-client.js';

const KEY = 'slow-subscriber-key-0123456789';
const MAX_BUFFERED_BYTES = 256 * 1024;
/** 2,000 events of 8 KB: 16 MB, more than loopback's socket buffers take from a client that does not read. */
const EVENTS = 2_000;
const PADDING = 'x'.repeat(8 * 1024);

describe('a live channel subscriber that never reads', function () {
  this.timeout(60_000);
  let server: Server;
  let channel: LiveChannel;
  let port: number;
  const statistics = new LiveEventLog<{ seq: number; padding: string }>(EVENTS);

  before(async () => {
    const session = { id: 'slow-subscriber', isActive: true, statistics, findings: new LiveEventLog(1), metadata: new LiveEventLog(1) };
    const live = {
      latest: () => session,
      active: () => null,
      // No session after this one: a follower waits until its subscription ends.
      nextSession: (_after: unknown, signal: AbortSignal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(null), { once: true })),
    };
    server = createServer((_request, response) => response.end());
    channel = createLiveChannel(live as unknown as LiveSessions, KEY, null, { maxBufferedBytes: MAX_BUFFERED_BYTES, checkIntervalMs: 100 });
    channel.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  after(async () => {
    await channel?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('is cut once its unsent data passes the bound, while a subscriber that reads gets every event', async () => {
    const sleeper = new WebSocket(`ws://127.0.0.1:${port}${LIVE_CHANNEL_PATH}`, { headers: { 'x-api-key': KEY } });
    let closeCode: number | null = null;
    sleeper.on('close', (code) => (closeCode = code));
    sleeper.on('error', () => undefined);
    await new Promise((resolve, reject) => {
      sleeper.once('open', resolve);
      sleeper.once('error', reject);
    });
    sleeper.send(JSON.stringify({ id: 1, method: 'subscription', params: { path: 'statistics', input: undefined } }));
    const reader = await connectLiveClient(port, KEY);
    try {
      // Its TCP socket paused: nothing more is read from the kernel.
      (sleeper as unknown as { _socket: { pause(): void } })._socket.pause();
      const started = Date.now();
      for (let i = 0; i < EVENTS; i++) {
        statistics.append((seq) => ({ seq, padding: PADDING }));
        // A turn of the loop now and then: the channel sends as the events come.
        if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await reader.until(() => reader.statistics.length === EVENTS, 30_000, `the reader's ${EVENTS} events`);
      expect(reader.statistics.map((event) => (event as { seq: number }).seq)).to.deep.equal(Array.from({ length: EVENTS }, (_, i) => i + 1));
      // Resumed, the sleeper reads what the kernel kept, then the end of its connection: cut, no close handshake.
      (sleeper as unknown as { _socket: { resume(): void } })._socket.resume();
      await until('the sleeper cut', 20_000, () => closeCode !== null);
      expect(closeCode).to.equal(1006);
      expect(Date.now() - started, "cut by the bound, not by tRPC's 35 s keep-alive").to.be.below(30_000);
    } finally {
      await reader.close();
      sleeper.terminate();
    }
  });
});
