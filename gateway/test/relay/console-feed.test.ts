/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-explicit-any -- JSON answers are read loosely: the assertions check their values */
import { expect } from 'chai';
import { createGenerator } from '@klvscope/core';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { sendPacedLoop } from '../../../test-support/paced-udp-sender.js';
import { readServerSentEvents } from '../../../test-support/server-sent-events.js';
import { eventually, relayForSuite } from './relay-test-server.js';

const RELAYING = 8;
const CHANNELS_PER_PLATFORM = 8;
const PLATFORMS = 8;
const SENDER_BITRATE = 1_000_000;

describe('relay: GET /api/events sends a console everything once, then only what changed', function () {
  this.timeout(60_000);
  const relay = relayForSuite();
  const senders: Array<{ stop(): void }> = [];

  before(async () => {
    const ports = await Promise.all(Array.from({ length: RELAYING }, () => freeUdpPort()));
    // 8 platforms of 8 channels; the first platform's relay, the others wait (configured, stopped).
    const platforms = Array.from({ length: PLATFORMS }, (_, p) => ({
      id: `uav-${p}`,
      name: `UAV ${p}`,
      channels: Array.from({ length: CHANNELS_PER_PLATFORM }, (_, c) => ({
        channelId: `uav${p}-ch${c}`,
        name: `channel ${c}`,
        input: p === 0 ? `udp://127.0.0.1:${ports[c]}` : `udp://239.1.${p}.${c}:5000`,
        // One relaying channel has a minimum it cannot meet: it stays in alarm.
        alarms: p === 0 && c === 3 ? { minBitrate: 50_000_000 } : {},
      })),
    }));
    expect((await relay.client.request('POST', '/platforms/upload', platforms)).status).to.equal(201);
    const stream = Buffer.concat([...createGenerator({ durationSeconds: 4, bitrate: SENDER_BITRATE, packetSize: 188, audio: true, seed: 11, faults: [], klv: { carriage: 'sync', rateHz: 30 } }).chunks()]);
    for (const port of ports) senders.push(sendPacedLoop(stream, port, SENDER_BITRATE));
    await relay.client.request('POST', '/platforms/uav-0/command?command=start');
    // Past the first (partial) reading of every relaying channel, and the alarm raised.
    await eventually(async () => {
      const all = (await relay.client.get('/bitrates')).body as any[];
      return all.filter((b) => b.history.length >= 3).length === RELAYING && all.some((b) => b.alarms.length > 0) ? true : undefined;
    }, 15_000, 'three readings of each relaying channel');
  });

  after(() => {
    for (const sender of senders) sender.stop();
  });

  it('gives everything first, then each second only the readings of the 8 channels that relay: under 10 KB a second for 64 channels', async () => {
    const abort = new AbortController();
    const messages: Array<{ update: any; bytes: number }> = [];
    let previousBytes = 0;
    for await (const event of readServerSentEvents(`${relay.server.url}/api/events`, {}, abort.signal)) {
      expect(event.event).to.equal('update');
      messages.push({ update: JSON.parse(event.data), bytes: event.bytesSoFar - previousBytes });
      previousBytes = event.bytesSoFar;
      if (messages.length === 9) break;
    }
    abort.abort();
    const [first, ...rest] = messages;
    expect(first.update.platforms).to.have.length(PLATFORMS);
    expect(first.update.platforms.flatMap((p: any) => p.channels)).to.have.length(PLATFORMS * CHANNELS_PER_PLATFORM);
    expect(first.update.bitrates).to.have.length(PLATFORMS * CHANNELS_PER_PLATFORM);
    expect(first.update.bitrates.find((b: any) => b.channelId === 'uav0-ch0').history.length).to.be.at.least(3);

    const relaying = new Set(Array.from({ length: RELAYING }, (_, c) => `uav0-ch${c}`));
    const lastSent = new Map<string, string>(first.update.bitrates.map((b: any) => [b.channelId, b.time]));
    for (const { update } of rest) {
      // Nothing changed in the configuration or the states: no platform, no channel view is sent again.
      expect(update).not.to.have.any.keys('platforms', 'channels', 'serverStatus');
      for (const entry of update.bitrates ?? []) {
        expect(relaying.has(entry.channelId), entry.channelId).to.equal(true);
        // Only the readings since the last message before the latest, which the entry itself is; outputs named by the channel's order.
        expect(entry.history.every((r: any) => r.time > (lastSent.get(entry.channelId) as string) && r.time < entry.time)).to.equal(true);
        expect(entry.time > (lastSent.get(entry.channelId) as string)).to.equal(true);
        expect(entry).not.to.have.any.keys('limits');
        lastSent.set(entry.channelId, entry.time);
      }
    }
    const readingsSent = rest.reduce((n, { update }) => n + (update.bitrates?.length ?? 0), 0);
    expect(readingsSent, 'about one reading per relaying channel per message').to.be.within(RELAYING * (rest.length - 2), RELAYING * (rest.length + 1));
    // The channel in alarm says so in its entries.
    const alarmed = rest.flatMap(({ update }) => update.bitrates ?? []).filter((b: any) => b.channelId === 'uav0-ch3');
    expect(alarmed.every((b: any) => b.alarms.map((a: any) => a.kind).join() === 'bitrate-low')).to.equal(true);
    // One message a second: its bytes are the console's traffic for that second.
    const bytesPerMessage = rest.reduce((n, m) => n + m.bytes, 0) / rest.length;
    console.log(`      the console's feed: first message ${first.bytes} bytes, then ${Math.round(bytesPerMessage)} bytes a second for ${PLATFORMS * CHANNELS_PER_PLATFORM} channels, ${RELAYING} relaying`);
    expect(bytesPerMessage).to.be.below(10_000);
  });

  it('sends a channel again when its state changes, and the platforms again when one is added', async () => {
    const abort = new AbortController();
    const updates: any[] = [];
    let changed = false;
    for await (const event of readServerSentEvents(`${relay.server.url}/api/events`, {}, abort.signal)) {
      updates.push(JSON.parse(event.data));
      if (updates.length === 1) {
        await relay.client.request('POST', '/channels/command', { channelId: 'uav0-ch7', command: 'stop' });
        await relay.client.request('POST', '/platforms', { id: 'late', name: 'Late', channels: [] });
        changed = true;
      } else if (changed && updates.some((u) => u.platforms) && updates.some((u) => u.channels)) break;
      if (updates.length > 6) break;
    }
    abort.abort();
    const withPlatforms = updates.slice(1).find((u) => u.platforms);
    expect(withPlatforms?.platforms.map((p: any) => p.id)).to.include('late');
    const stateChange = updates.slice(1).find((u) => u.channels);
    // Either the stop came in its own message or with the platforms (which carry every channel).
    const stopped = (stateChange?.channels ?? withPlatforms.platforms.flatMap((p: any) => p.channels)).find((c: any) => c.channelId === 'uav0-ch7');
    expect(stopped.state).to.equal('stopped');
  });
});
