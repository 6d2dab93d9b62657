/**
 * Issue 35: a relay request refused after it began to change things (its
 * save refused for a full disk, services-full-disk.test.ts) leaves the
 * database and the running channels as they were (RelayService.changeOrRollBack),
 * here with the refusal thrown by the change itself, on a real relaying channel.
 */
import { createSocket } from 'node:dgram';
import { expect } from 'chai';
import { deleteRelayPlatform } from '@klvscope/core/store';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { receiver, relayForSuite, sleep } from './relay-test-server.js';

const packet = (n: number): Buffer => {
  const bytes = Buffer.alloc(188, 0xff);
  bytes[0] = 0x47;
  bytes.writeUInt16BE(0x100, 1);
  bytes[3] = 0x10 | (n & 0x0f);
  return bytes;
};

/** The message a promise was rejected with (a promise that resolves fails the test). */
async function rejectionOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a rejection');
}

describe('relay: a refused change', function () {
  this.timeout(30_000);
  const relay = relayForSuite();
  const sender = createSocket('udp4');
  let out: Awaited<ReturnType<typeof receiver>>;
  let inputPort: number;

  before(async () => {
    out = await receiver();
    inputPort = await freeUdpPort();
    const created = await relay.client.request('POST', '/platforms', { id: 'p', name: 'P', channels: [{ channelId: 'c', name: 'C', input: `udp://127.0.0.1:${inputPort}`, outputs: [`udp://127.0.0.1:${out.port}`] }] });
    expect(created.status).to.equal(201);
    expect((await relay.client.request('POST', '/channels/command', { channelId: 'c', command: 'start' })).status).to.equal(200);
  });
  after(() => {
    sender.close();
    out.socket.close();
  });

  /** Whether a datagram sent to the channel's input now comes out of its output. */
  async function relaying(): Promise<boolean> {
    const before = out.datagrams.length;
    for (let attempt = 0; attempt < 20; attempt++) {
      await new Promise<void>((resolve) => sender.send(packet(attempt), inputPort, '127.0.0.1', () => resolve()));
      await sleep(100);
      if (out.datagrams.length > before) return true;
    }
    return false;
  }

  it('that deleted a running channel and its platform: both back, the channel relaying again', async () => {
    const { service } = relay.server;
    const refusal = service.changeOrRollBack(async () => {
      await service.deleteChannels(['c']);
      deleteRelayPlatform(service.db, 'p');
      await service.save();
      throw new Error('refused after the change was saved');
    });
    expect(await rejectionOf(refusal)).to.equal('refused after the change was saved');
    const platforms = await relay.client.get('/platforms');
    expect((platforms.body as Array<{ id: string; channels: Array<{ channelId: string }> }>).map((p) => [p.id, p.channels.map((c) => c.channelId)])).to.deep.equal([['p', ['c']]]);
    expect(service.runtimes.get('c')?.running).to.equal(true);
    expect(await relaying(), 'datagrams relayed after the roll-back').to.equal(true);
  });

  it('that stopped a channel: running again', async () => {
    const { service } = relay.server;
    const refusal = service.changeOrRollBack(async () => {
      await service.stopChannel('c');
      throw new Error('refused');
    });
    expect(await rejectionOf(refusal)).to.equal('refused');
    expect(service.runtimes.get('c')?.running).to.equal(true);
    expect(await relaying()).to.equal(true);
  });

  it('does not undo a request that came while it ran', async () => {
    const { service } = relay.server;
    let release = (): void => undefined;
    const refusal = service.changeOrRollBack(async () => {
      deleteRelayPlatform(service.db, 'p');
      await new Promise<void>((resolve) => (release = resolve));
      throw new Error('refused');
    });
    // Sent while the refused change holds its turn: it waits for it, then is made, and stays.
    const created = relay.client.request('POST', '/platforms', { id: 'q', name: 'Q', channels: [] });
    await sleep(200);
    release();
    expect(await rejectionOf(refusal)).to.equal('refused');
    expect((await created).status).to.equal(201);
    const ids = (await relay.client.get('/platforms')).body as Array<{ id: string }>;
    expect(ids.map((p) => p.id).sort()).to.deep.equal(['p', 'q']);
  });

  it('keeps a change that succeeded', async () => {
    expect((await relay.client.request('DELETE', '/platforms/q')).status).to.equal(204);
    const ids = (await relay.client.get('/platforms')).body as Array<{ id: string }>;
    expect(ids.map((p) => p.id)).to.deep.equal(['p']);
  });
});
