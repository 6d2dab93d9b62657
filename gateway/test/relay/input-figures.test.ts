/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- JSON answers are read loosely: the assertions check their values */
import { createSocket } from 'node:dgram';
import { expect } from 'chai';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { eventually, relayForSuite } from './relay-test-server.js';

/** An RTP packet (RFC 3550, payload type 33: MP2T) of sequence number `sequence` carrying 7 TS packets on PID 0x100. */
function rtpDatagram(sequence: number): Buffer {
  const rtp = Buffer.alloc(12 + 7 * 188, 0xff);
  rtp[0] = 0x80;
  rtp[1] = 33;
  rtp.writeUInt16BE(sequence & 0xffff, 2);
  rtp.writeUInt32BE(sequence * 3003, 4);
  rtp.writeUInt32BE(0x4b4c5653, 8);
  for (let i = 0; i < 7; i++) {
    const at = 12 + i * 188;
    rtp[at] = 0x47;
    rtp.writeUInt16BE(0x100, at + 1);
    rtp[at + 3] = 0x10 | ((sequence * 7 + i) & 0x0f);
  }
  return rtp;
}

describe("relay: a running channel's input figures in /api/bitrates (sender, uptime, silence, RTP loss)", function () {
  this.timeout(30_000);
  const relay = relayForSuite();
  const sender = createSocket('udp4');

  after(() => sender.close());

  it('names the sender, counts the RTP packets missing by their sequence numbers, and says how long ago the last datagram came', async () => {
    const port = await freeUdpPort();
    await relay.client.request('POST', '/platforms', { id: 'p', name: 'P', channels: [{ channelId: 'rtp', name: 'RTP', input: `udp://127.0.0.1:${port}?rtp=on` }] });
    const before = Date.now();
    expect((await relay.client.request('POST', '/channels/command', { channelId: 'rtp', command: 'start' })).status).to.equal(200);
    await new Promise<void>((resolve) => sender.bind(0, '127.0.0.1', resolve));
    // Sequence numbers 0-9, then 13-19: 3 packets missing; the TS counters inside follow the RTP packets, so the gap is one continuity error on PID 0x100.
    for (const sequence of [...Array(10).keys(), ...Array.from({ length: 7 }, (_, i) => 13 + i)]) {
      await new Promise<void>((resolve) => sender.send(rtpDatagram(sequence), port, '127.0.0.1', () => resolve()));
    }
    const reading = await eventually(async () => {
      const [b] = (await relay.client.get('/bitrates?channelId=rtp')).body;
      return b.input?.datagrams === 17 && b.pids.length > 0 ? b : undefined;
    }, 5000, '17 datagrams and a reading');
    expect(reading.input).to.include({ sender: `127.0.0.1:${sender.address().port}`, rtp: true, rtpLost: 3, kernelDrops: 0, applicationLoss: 0, bytes: 17 * 7 * 188 });
    expect(Date.parse(reading.input.since)).to.be.within(before, Date.now());
    expect(reading.input.silentMs).to.be.at.least(0);
    expect(reading.pids).to.deep.equal([{ pid: 0x100, bitrate: reading.pids[0].bitrate, packets: 17 * 7, continuityErrors: 1 }]);
    // Silent since: the figure grows with the relay's clock.
    const later = await eventually(async () => {
      const [b] = (await relay.client.get('/bitrates?channelId=rtp')).body;
      return b.input.silentMs > reading.input.silentMs ? b : undefined;
    }, 5000, 'the silence to grow');
    expect(later.input.datagrams).to.equal(17);
  });

  it('gives no input figures for a stopped channel', async () => {
    await relay.client.request('POST', '/channels/command', { channelId: 'rtp', command: 'stop' });
    const [stopped] = (await relay.client.get('/bitrates?channelId=rtp')).body;
    expect(stopped.input).to.equal(null);
  });
});
