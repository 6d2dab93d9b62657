import { expect } from 'chai';
import { createSocket } from 'node:dgram';
import { createKlvAwareTsDemuxer, generateTransportStream, parseFaultSpec } from '@klvscope/core';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { IDLE_FLUSH_MS } from '../../src/live/live-session.js';
import type { LiveSessionState } from '../../src/live/live-records.js';
import { testServerForSuite, type TestServer } from '../inspection/test-server.js';
import { connectLiveClient } from './live-client.js';

const TS_PACKET = 188;

/** Whether the TS packet at `at` carries a PCR (ISO 13818-1 2.4.3.4: adaptation field with PCR_flag). */
const carriesPcr = (bytes: Uint8Array, at: number): boolean => (bytes[at + 3] & 0x20) !== 0 && bytes[at + 4] > 0 && (bytes[at + 5] & 0x10) !== 0;

describe('a live session whose feed goes silent', function () {
  this.timeout(60_000);
  let server: TestServer;
  testServerForSuite((started) => (server = started));

  it('passes on what it received within its idle time, before Stop: the findings with their own arrival, the KLV packets in their own second', async () => {
    const { bytes, faults } = generateTransportStream({ bitrate: 2_000_000, seed: 12, durationSeconds: 3, klv: { carriage: 'sync' }, faults: [parseFaultSpec('klv-checksum@1.5')] });
    // The feed ends after the faulty KLV packet and before the next PCR: the stream time of what follows the
    // last PCR is known only from the next one, so the session holds those observations until it knows more.
    let cut = (faults[0].packetIndex + 1) * TS_PACKET;
    while (!carriesPcr(bytes, cut)) cut += TS_PACKET;
    const sent = bytes.subarray(0, cut);
    let klvPackets = 0;
    const demuxer = createKlvAwareTsDemuxer((observation) => observation.kind === 'klv-packet' && klvPackets++);
    demuxer.push(sent);
    demuxer.end();

    const port = await freeUdpPort();
    const client = await connectLiveClient(server.port, server.key);
    const sender = createSocket('udp4');
    try {
      const started = (await server.call('/sessions/live', { method: 'POST', body: { source: `udp://127.0.0.1:${port}` } })).json as LiveSessionState;
      for (let at = 0; at < sent.length; at += 7 * TS_PACKET) {
        await new Promise<void>((resolve, reject) => sender.send(sent.subarray(at, at + 7 * TS_PACKET), port, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
      }
      const ofSession = <T extends { sessionId: string }>(events: readonly T[]): T[] => events.filter((event) => event.sessionId === started.sessionId);
      await client.until(() => ofSession(client.findings).some((f) => f.type === 'klv-checksum-error'), 3_000, 'the checksum error, without Stop');
      const found = ofSession(client.findings).find((f) => f.type === 'klv-checksum-error');
      // Published once the feed had been silent for the idle time, well before any Stop. A timer counts from
      // the event loop's time, kept in whole milliseconds and read before the arrival was stamped: it may end
      // up to 1 ms short of the stamps' finer clock (CI saw 199.93 ms of 200).
      expect((found?.emittedAt ?? Infinity) - (found?.receivedAt ?? 0)).to.be.within(IDLE_FLUSH_MS - 1, IDLE_FLUSH_MS + 500);
      expect(found?.t).to.be.a('number');
      // Every KLV packet is counted in the readings taken while the feed is silent, before Stop.
      const counted = (): number => ofSession(client.statistics).reduce((sum, reading) => sum + Math.round(reading.klvPacketsPerSecond * reading.seconds), 0);
      await client.until(() => ofSession(client.statistics).some((reading) => reading.at > (found?.emittedAt ?? Infinity)), 3_000, 'a reading after the flush');
      expect(counted()).to.equal(klvPackets);
      const stopped = (await server.call('/sessions/active', { method: 'DELETE' })).json as LiveSessionState;
      expect(stopped.counts.metadataPackets).to.equal(klvPackets);
      expect(found?.receivedAt, 'stamped with the arrival of the last bytes, not the flush').to.equal(stopped.received.lastChunkAt);
    } finally {
      sender.close();
      await client.close();
    }
  });
});
