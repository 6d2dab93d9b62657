import { expect } from 'chai';
import { generateTransportStream } from '@klvscope/core';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { sendPaced } from '../../../test-support/paced-udp-sender.js';
import type { LiveSessionState } from '../../src/live/live-records.js';
import { testServerForSuite, type TestServer } from '../inspection/test-server.js';
import { connectLiveClient } from './live-client.js';

const BITRATE = 1_000_000;

describe('the live statistics of a feed with sparse PCRs', function () {
  this.timeout(60_000);
  let server: TestServer;
  testServerForSuite((started) => (server = started));

  it('counts the KLV packets of a 29.4 Hz source in the second they arrived, not in batches at each PCR (issue 36 item 7)', async () => {
    // A PCR every 534 ms (the recording of issue 36): what follows a PCR is timed only at the next one.
    const { bytes } = generateTransportStream({ bitrate: BITRATE, seed: 36, durationSeconds: 5, pcrIntervalMs: 534, klv: { carriage: 'sync', rateHz: 29.4 } });
    const port = await freeUdpPort();
    const client = await connectLiveClient(server.port, server.key);
    try {
      const started = (await server.call('/sessions/live', { method: 'POST', body: { source: `udp://127.0.0.1:${port}` } })).json as LiveSessionState;
      await sendPaced(bytes, port, BITRATE);
      await server.call('/sessions/active', { method: 'DELETE' });
      const readings = client.statistics.filter((reading) => reading.sessionId === started.sessionId && reading.status === 'receiving');
      // The whole seconds of the feed: the first reading may start before it, the last end after it.
      const inner = readings.slice(1, -1).filter((reading) => reading.seconds > 0.9);
      expect(inner.length).to.be.at.least(2);
      // 29.4 KLV packets for each second of TS packets received (the sender's pace varies on a busy machine); batches read 16 or 32.
      const tsPacketsPerSecond = BITRATE / (188 * 8);
      for (const reading of inner) {
        const expected = (29.4 * reading.packetsPerSecond) / tsPacketsPerSecond;
        expect(reading.klvPacketsPerSecond, `reading ${reading.seq} of ${reading.packetsPerSecond} TS packets/s`).to.be.closeTo(expected, 1.5);
      }
    } finally {
      await client.close();
    }
  });
});
