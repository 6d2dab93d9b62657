/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- JSON answers are read loosely: the assertions check their values */
import { createSocket, type Socket } from 'node:dgram';
import { expect } from 'chai';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { eventually, receiver, relayForSuite, sleep } from './relay-test-server.js';

/** One TS packet on PID 0x100 whose payload starts with `n`. */
function tsPacket(n: number): Buffer {
  const bytes = Buffer.alloc(188, 0xff);
  bytes[0] = 0x47;
  bytes.writeUInt16BE(0x100, 1);
  bytes[3] = 0x10 | (n & 0x0f);
  bytes.writeUInt32BE(n, 4);
  return bytes;
}

const sender = createSocket('udp4');
const sendTo = (port: number, bytes: Buffer): Promise<void> => new Promise((resolve) => sender.send(bytes, port, '127.0.0.1', () => resolve()));
after(() => sender.close());

describe('relay: a re-packing channel', function () {
  this.timeout(20_000);
  const relay = relayForSuite();
  let out: Awaited<ReturnType<typeof receiver>>;
  let inputPort: number;

  before(async () => {
    out = await receiver();
    inputPort = await freeUdpPort();
    const created = await relay.client.request('POST', '/platforms', { id: 'r', name: 'R', channels: [{ channelId: 'rp', name: 'RP', input: `udp://127.0.0.1:${inputPort}`, outputs: [`udp://127.0.0.1:${out.port}`], repack: true }] });
    expect(created.status).to.equal(201);
    expect((await relay.client.request('POST', '/channels/command', { channelId: 'rp', command: 'start' })).status).to.equal(200);
  });
  after(() => out.socket.close());

  it('sends the bytes left after the last full datagram once the input is silent', async () => {
    for (let n = 0; n < 10; n++) await sendTo(inputPort, tsPacket(n));
    await eventually(() => (out.datagrams.length === 2 ? true : undefined), 3000, 'a full and a short datagram');
    expect(out.datagrams.map((d) => d.length)).to.deep.equal([7 * 188, 3 * 188]);
    expect(Buffer.concat(out.datagrams).equals(Buffer.concat(Array.from({ length: 10 }, (_, n) => tsPacket(n))))).to.equal(true);
  });

  it('sends the bytes left at stop', async () => {
    for (let n = 10; n < 12; n++) await sendTo(inputPort, tsPacket(n));
    // Received by the relay, not yet idle long enough to be flushed by silence.
    await sleep(30);
    expect((await relay.client.request('POST', '/channels/command', { channelId: 'rp', command: 'stop' })).status).to.equal(200);
    await eventually(() => (out.datagrams.length === 3 ? true : undefined), 3000, 'the bytes left at stop');
    expect(out.datagrams[2].equals(Buffer.concat([tsPacket(10), tsPacket(11)]))).to.equal(true);
  });
});

describe('relay: an output that refuses its sends', function () {
  this.timeout(20_000);
  const relay = relayForSuite();

  it('counts what reached its destination, not what it refused, and reports the sends refused', async () => {
    const inputPort = await freeUdpPort();
    // Nothing listens there: each send after the ICMP port unreachable is refused (ECONNREFUSED on a connected socket).
    const deadPort = await freeUdpPort();
    await relay.client.request('POST', '/platforms', { id: 'd', name: 'D', channels: [{ channelId: 'dead', name: 'Dead', input: `udp://127.0.0.1:${inputPort}`, outputs: [`udp://127.0.0.1:${deadPort}`] }] });
    await relay.client.request('POST', '/channels/command', { channelId: 'dead', command: 'start' });
    const end = Date.now() + 2500;
    let sent = 0;
    while (Date.now() < end && sent < 250) {
      // Each datagram its own: the same one again within milliseconds is what a loop looks like.
      await sendTo(inputPort, Buffer.concat(Array.from({ length: 7 }, (_, n) => tsPacket(sent * 7 + n))));
      sent++;
      await sleep(10);
    }
    // Every datagram the relay took is counted, as sent to the socket and (on loopback, one ICMP each) refused by the destination.
    const reading = await eventually(async () => {
      const [r] = (await relay.client.get('/bitrates?channelId=dead')).body;
      return r.state === 'no-signal' ? r : undefined;
    }, 5000, 'the input silent');
    expect(reading.outputs[0].sent).to.be.within(0.9 * sent, sent);
    expect(reading.outputs[0].refused).to.be.within(0.9 * reading.outputs[0].sent, reading.outputs[0].sent);
    const input = reading.history.reduce((sum: number, r: { inputBitrate: number }) => sum + r.inputBitrate, 0);
    const output = reading.history.reduce((sum: number, r: { outputBitrate: number }) => sum + r.outputBitrate, 0);
    expect(input).to.be.above(0);
    expect(output).to.be.below(0.1 * input);
    const channel = (await relay.client.get('/platforms/d')).body.channels[0];
    expect(channel.outputState[0].state).to.equal('error');
  });
});

describe('relay: an input that cannot be opened', function () {
  this.timeout(20_000);
  const relay = relayForSuite({ inputRetryMs: 100, errorRepeatMs: 400, logMaxMessages: 6 });
  let holder: Socket;

  it('is reported once, then again at growing intervals, while it is tried every retry', async () => {
    const port = await freeUdpPort();
    // Its port held by another socket (no SO_REUSEADDR): the channel's bind fails with EADDRINUSE.
    holder = createSocket('udp4');
    await new Promise<void>((resolve) => holder.bind(port, '127.0.0.1', resolve));
    await relay.client.request('POST', '/platforms', { id: 'f', name: 'F', channels: [{ channelId: 'busy', name: 'Busy', input: `udp://127.0.0.1:${port}` }] });
    const started = Date.now();
    await relay.client.request('POST', '/channels/command', { channelId: 'busy', command: 'start' });
    await sleep(2200 - (Date.now() - started));
    const errors = (await relay.client.get('/logMessages?type=error')).body as Array<{ time: string; message: string }>;
    // Tried about 20 times; reported at once, then after 0.4 s and 0.8 s more (the next at 1.6 s more is past the window).
    expect(errors.map((m) => m.message.includes('EADDRINUSE'))).to.deep.equal([true, true, true]);
    const gaps = errors.slice(1).map((m, i) => Date.parse(m.time) - Date.parse(errors[i].time));
    expect(gaps[1]).to.be.above(gaps[0]);
    expect(errors[2].message).to.match(/still, for \d+ s and \d+ attempts/);
    expect((await relay.client.get('/platforms/f')).body.channels[0].state).to.equal('error');
  });

  it('keeps log messages under the retention count, the newest ones', async () => {
    for (let i = 0; i < 4; i++) {
      await relay.client.request('POST', '/channels/command', { channelId: 'busy', command: 'stop' });
      await relay.client.request('POST', '/channels/command', { channelId: 'busy', command: 'start' });
    }
    await relay.client.request('POST', '/channels/command', { channelId: 'busy', command: 'stop' });
    holder.close();
    const log = await relay.client.get('/logMessages?_limit=1000');
    expect(log.headers.get('x-total-count')).to.equal('6');
    expect(log.body.at(-1).message).to.match(/channel busy \(Busy\) stopped/);
  });

  it('deletes log messages older than the retention age', async () => {
    const old = await relay.client.request('POST', '/logMessages', { time: '2020-01-01T00:00:00Z', type: 'server', message: 'years ago' });
    expect(old.status).to.equal(201);
    await relay.client.request('POST', '/channels/command', { channelId: 'busy', command: 'start' });
    await relay.client.request('POST', '/channels/command', { channelId: 'busy', command: 'stop' });
    expect((await relay.client.get('/logMessages?message=years%20ago')).body).to.deep.equal([]);
  });
});
