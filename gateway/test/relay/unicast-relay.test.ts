/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return -- JSON answers are read loosely: the assertions check their values */
import { createSocket } from 'node:dgram';
import { expect } from 'chai';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { RelayClient, eventually, makeDataDir, receiver, removeDataDir, sleep, startTestRelay } from './relay-test-server.js';
import type { RunningRelayServer } from '../../src/relay/start-relay-server.js';

/** A datagram of 7 TS packets on PID 0x100 and 0x101, numbered by `n` so that order and content can be checked. */
function tsDatagram(n: number): Buffer {
  const bytes = Buffer.alloc(7 * 188, 0xff);
  for (let i = 0; i < 7; i++) {
    const at = i * 188;
    bytes[at] = 0x47;
    bytes.writeUInt16BE(i < 5 ? 0x100 : 0x101, at + 1);
    bytes[at + 3] = 0x10 | (n & 0x0f);
    bytes.writeUInt32BE(n, at + 4);
  }
  return bytes;
}

describe('relay: a channel relaying unicast UDP on 127.0.0.1', function () {
  this.timeout(30_000);
  let dataDir: string;
  let server: RunningRelayServer | undefined;
  let client: RelayClient;
  let inputPort: number;
  const sender = createSocket('udp4');
  let a: Awaited<ReturnType<typeof receiver>>;
  let b: Awaited<ReturnType<typeof receiver>>;

  before(async () => {
    dataDir = await makeDataDir();
    ({ server, client } = await startTestRelay(dataDir));
    inputPort = await freeUdpPort();
    a = await receiver();
    b = await receiver();
    const created = await client.request('POST', '/platforms', {
      id: 'uav',
      name: 'UAV',
      channels: [
        {
          channelId: 'eo',
          name: 'EO',
          input: `udp://127.0.0.1:${inputPort}`,
          // The third output names an interface address this machine does not have: it cannot be opened, the others go on.
          outputs: [`udp://127.0.0.1:${a.port}`, `udp://127.0.0.1:${b.port}?ttl=4`, 'udp://127.0.0.1:9?interface=192.0.2.1'],
        },
      ],
    });
    expect(created.status).to.equal(201);
  });

  after(async () => {
    sender.close();
    a?.socket.close();
    b?.socket.close();
    await server?.close();
    await removeDataDir(dataDir);
  });

  const send = (n: number): Promise<void> => new Promise((resolve) => sender.send(tsDatagram(n), inputPort, '127.0.0.1', () => resolve()));
  const channel = async (): Promise<{ state: string; outputState: Array<{ state: string; error: string | null }>; error: string | null }> => (await client.get('/platforms/uav')).body.channels[0];

  it('starts on the command and passes each datagram unchanged to every output that can be opened, reporting the one that cannot', async () => {
    const started = await client.request('POST', '/channels/command', { channelId: 'eo', command: 'start' });
    expect(started.status).to.equal(200);
    expect(started.body.channel.state).to.equal('running');
    for (let n = 0; n < 200; n++) {
      await send(n);
      if (n % 20 === 0) await sleep(5);
    }
    await eventually(() => (a.datagrams.length === 200 && b.datagrams.length === 200 ? true : undefined), 5000, '200 datagrams on both outputs');
    for (let n = 0; n < 200; n++) {
      expect(a.datagrams[n].equals(tsDatagram(n)), `datagram ${n}`).to.equal(true);
      expect(b.datagrams[n].equals(tsDatagram(n)), `datagram ${n}`).to.equal(true);
    }
    const { outputState } = await channel();
    expect(outputState.map((o) => o.state)).to.deep.equal(['sending', 'sending', 'error']);
    expect(outputState[2].error).to.match(/192\.0\.2\.1.*EADDRNOTAVAIL/);
    const errors = (await client.get('/logMessages?type=error')).body as Array<{ message: string }>;
    expect(errors.some((m) => m.message.includes('interface=192.0.2.1'))).to.equal(true);
  });

  it('measures the input and output bitrates each second, per output and per input PID', async () => {
    // 100 datagrams per second of 1316 bytes for 2.5 s: 1 052 800 b/s in, twice that out.
    const end = Date.now() + 2500;
    let n = 1000;
    while (Date.now() < end) {
      const due = Date.now() + 10;
      await send(n++);
      await sleep(Math.max(0, due - Date.now()));
    }
    const [reading] = (await client.get('/bitrates?channelId=eo')).body;
    expect(reading.channelId).to.equal('eo');
    expect(reading.inputBitrate).to.be.within(700_000, 1_200_000);
    expect(reading.outputBitrate).to.be.closeTo(2 * reading.inputBitrate, 0.02 * reading.inputBitrate);
    expect(reading.outputs.map((o: { bitrate: number }) => o.bitrate > 0)).to.deep.equal([true, true, false]);
    expect(reading.pids.map((p: { pid: number }) => p.pid)).to.deep.equal([0x100, 0x101]);
    const [video, klv] = reading.pids as Array<{ bitrate: number }>;
    expect(video.bitrate / klv.bitrate).to.be.closeTo(2.5, 0.01);
    expect(reading.history.length).to.be.at.least(2);
  });

  it('turns to no-signal with a log message when its input goes silent, and recovers by itself when data returns', async () => {
    await eventually(async () => ((await channel()).state === 'no-signal' ? true : undefined), 3000, 'no-signal');
    const silent = (await client.get('/logMessages?type=no-signal')).body as Array<{ message: string }>;
    expect(silent).to.have.length(1);
    expect(silent[0].message).to.include('channel eo: no data');
    await send(5000);
    await eventually(async () => ((await channel()).state === 'running' ? true : undefined), 3000, 'running again');
    expect((await client.get('/logMessages?type=signal-back')).body).to.have.length(1);
  });

  it('stops on the command (the path form), closing its input socket', async () => {
    const stopped = await client.request('POST', '/channels/eo/command?command=stop');
    expect(stopped.status).to.equal(200);
    expect(stopped.body.channel.state).to.equal('stopped');
    const before = a.datagrams.length;
    await send(6000);
    await sleep(200);
    expect(a.datagrams.length).to.equal(before);
    expect((await channel()).state).to.equal('stopped');
  });

  it('starts again after a restart the channels that were running, and keeps every row', async () => {
    await client.request('POST', '/platforms/uav/command?command=start');
    expect((await channel()).state).to.equal('running');
    const logCount = (await client.get('/logMessages')).headers.get('x-total-count');
    await server?.close();
    ({ server, client } = await startTestRelay(dataDir));
    expect(server.resumed).to.deep.equal(['eo']);
    expect((await client.get('/platforms')).body.map((p: { id: string }) => p.id)).to.deep.equal(['uav']);
    expect(Number((await client.get('/logMessages')).headers.get('x-total-count'))).to.be.above(Number(logCount));
    expect((await client.get('/serverStatus')).body.map((s: { state: string }) => s.state)).to.deep.equal(['running', 'stopped', 'running']);
    const before = a.datagrams.length;
    await send(7000);
    await eventually(() => (a.datagrams.length === before + 1 ? true : undefined), 3000, 'the datagram after the restart');
    expect(a.datagrams.at(-1)?.equals(tsDatagram(7000))).to.equal(true);
  });

  it('stops a channel before deleting it (204), and the channel is gone from its platform', async () => {
    expect((await client.request('DELETE', '/channels/eo')).status).to.equal(204);
    expect((await client.get('/platforms/uav')).body.channels).to.deep.equal([]);
    expect((await client.request('DELETE', '/channels/eo')).status).to.equal(404);
    const before = a.datagrams.length;
    await send(8000);
    await sleep(200);
    expect(a.datagrams.length).to.equal(before);
  });
});
