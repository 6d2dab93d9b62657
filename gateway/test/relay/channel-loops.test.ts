/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-explicit-any -- JSON answers are read loosely: the assertions check their values */
import { createSocket } from 'node:dgram';
import { expect } from 'chai';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { eventually, relayForSuite, sleep } from './relay-test-server.js';

const fieldsOf = (body: any): string[] => body.error.details.fields.map((f: { field: string }) => f.field);

describe('relay: loops', function () {
  this.timeout(20_000);
  const relay = relayForSuite();

  it('refuses a channel whose output is its own input, unicast or multicast (400 naming the output)', async () => {
    for (const [input, output] of [
      ['udp://127.0.0.1:46001', 'udp://127.0.0.1:46001'],
      ['udp://:46002', 'udp://127.0.0.1:46002'],
      ['udp://239.9.9.9:46003', 'udp://239.9.9.9:46003?ttl=1'],
    ]) {
      const answer = await relay.client.request('POST', '/platforms', { name: 'L', channels: [{ channelId: `self-${output}`.replace(/[/?:=]/g, ''), name: 'L', input, outputs: ['udp://127.0.0.1:46999', output] }] });
      expect(answer.status, output).to.equal(400);
      expect(fieldsOf(answer.body), output).to.deep.equal(['channels[0].outputs[1]']);
      expect(answer.body.error.details.fields[0].message).to.match(/makes a loop: it reaches the input of its own channel/);
    }
  });

  it('refuses two channels feeding each other, in one platform or across two', async () => {
    const pair = await relay.client.request('POST', '/platforms', {
      name: 'Pair',
      channels: [
        { channelId: 'a', name: 'A', input: 'udp://127.0.0.1:46010', outputs: ['udp://127.0.0.1:46011'] },
        { channelId: 'b', name: 'B', input: 'udp://127.0.0.1:46011', outputs: ['udp://127.0.0.1:46010'] },
      ],
    });
    expect(pair.status).to.equal(400);
    expect(fieldsOf(pair.body)).to.deep.equal(['channels[0].outputs[0]', 'channels[1].outputs[0]']);
    expect((await relay.client.request('POST', '/platforms', { id: 'one', name: 'One', channels: [{ channelId: 'a', name: 'A', input: 'udp://127.0.0.1:46010', outputs: ['udp://127.0.0.1:46011'] }] })).status).to.equal(201);
    const other = await relay.client.request('POST', '/platforms', { id: 'two', name: 'Two', channels: [{ channelId: 'b', name: 'B', input: 'udp://127.0.0.1:46011', outputs: ['udp://127.0.0.1:46010'] }] });
    expect(other.status).to.equal(400);
    expect(other.body.error.details.fields[0].message).to.include('(b -> a -> b)');
    // A chain that does not come back is no loop.
    expect((await relay.client.request('POST', '/platforms', { id: 'two', name: 'Two', channels: [{ channelId: 'b', name: 'B', input: 'udp://127.0.0.1:46011', outputs: ['udp://127.0.0.1:46012'] }] })).status).to.equal(201);
  });

  it('stops a channel in error, with a log message, when its datagrams come back through something it cannot see', async () => {
    const inputPort = await freeUdpPort();
    // A device outside the relay that sends everything back to the channel's input, at most 5000 times.
    const mirror = createSocket('udp4');
    let mirrored = 0;
    mirror.on('message', (message) => {
      if (mirrored++ < 5000) mirror.send(message, inputPort, '127.0.0.1');
    });
    await new Promise<void>((resolve) => mirror.bind(0, '127.0.0.1', resolve));
    try {
      await relay.client.request('POST', '/platforms', { id: 'm', name: 'M', channels: [{ channelId: 'mirrored', name: 'Mirrored', input: `udp://127.0.0.1:${inputPort}`, outputs: [`udp://127.0.0.1:${mirror.address().port}`] }] });
      await relay.client.request('POST', '/channels/command', { channelId: 'mirrored', command: 'start' });
      const seed = Buffer.alloc(7 * 188, 0x55);
      for (let i = 0; i < 7; i++) seed.set([0x47, 0x01, 0x00, 0x10], i * 188);
      const sender = createSocket('udp4');
      await new Promise<void>((resolve) => sender.send(seed, inputPort, '127.0.0.1', () => resolve()));
      sender.close();
      const channel = await eventually(async () => {
        const c = (await relay.client.get('/platforms/m')).body.channels[0];
        return c.state === 'error' ? c : undefined;
      }, 5000, 'the loop stopped');
      expect(channel.error).to.match(/^loop: the datagrams it sends come back to its input/);
      const stoppedAt = mirrored;
      await sleep(300);
      expect(mirrored).to.be.below(1000);
      expect(mirrored - stoppedAt).to.be.at.most(1);
      const logged = (await relay.client.get('/logMessages?type=error&message_like=loop')).body;
      expect(logged.map((m: { message: string }) => m.message)).to.deep.equal([`channel mirrored: ${channel.error}`]);
    } finally {
      mirror.close();
    }
  });
});
