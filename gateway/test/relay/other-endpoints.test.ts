/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-assignment -- JSON answers are read loosely: the assertions check their values */
import { createSocket } from 'node:dgram';
import { networkInterfaces } from 'node:os';
import { expect } from 'chai';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { eventually, relayForSuite } from './relay-test-server.js';

describe('relay: information, upload, state-setting and re-packing', function () {
  this.timeout(20_000);
  const relay = relayForSuite();



  it('answers health as text, vendor information and the network interfaces of the machine', async () => {
    const health = await relay.client.get('/health');
    expect(health.status).to.equal(200);
    expect(health.body).to.equal('OK');
    expect(health.headers.get('content-type')).to.match(/^text\/plain/);
    expect((await relay.client.get('/info')).body).to.deep.equal({ product: 'klvscope channel relay', version: '0.1.0', vendor: 'klvscope', contact: 'https://github.com/klvscope/klvscope/issues', licence: 'demo' });
    const nics = (await relay.client.get('/nics')).body as Array<{ name: string; address: string; internal: boolean; up: boolean }>;
    const expected = Object.entries(networkInterfaces()).flatMap(([name, list]) => (list ?? []).map((a) => `${name} ${a.address}`));
    expect(nics.map((n) => `${n.name} ${n.address}`)).to.deep.equal(expected);
    expect(nics.find((n) => n.address === '127.0.0.1')).to.include({ name: 'lo', internal: true, up: true });
  });

  it('refuses a licence token that is not one with the JSON error body (422), and a missing token with 400', async () => {
    const refused = await relay.client.request('POST', '/server/uploadLicense', { token: 'klv1.not-a-token' });
    expect(refused.status).to.equal(422);
    expect(refused.body.error.code).to.equal('ERR_LICENCE_INVALID');
    expect((await relay.client.request('POST', '/server/uploadLicense', {})).body.error.details.fields[0].field).to.equal('token');
  });

  it('uploads platforms validated whole: one bad channel writes nothing, naming where it is', async () => {
    const bad = await relay.client.request('POST', '/platforms/upload', [
      { id: 'a', name: 'A', channels: [{ channelId: 'a1', name: 'A1', input: 'udp://239.0.0.1:5000' }] },
      { id: 'b', name: 'B', channels: [{ channelId: 'b1', name: 'B1', input: 'udp://239.0.0.1:5001', outputs: ['udp://239.0.0.2:5002?ttl=300'] }] },
    ]);
    expect(bad.status).to.equal(400);
    expect(bad.body.error.details.fields.map((f: { field: string }) => f.field)).to.deep.equal(['[1].channels[0].outputs[0]']);
    const twice = await relay.client.request('POST', '/platforms/upload', { platforms: [{ id: 'a', name: 'A', channels: [{ channelId: 'x', name: 'X', input: 'udp://239.0.0.1:5000' }] }, { id: 'b', name: 'B', channels: [{ channelId: 'x', name: 'X', input: 'udp://239.0.0.1:5000' }] }] });
    expect(twice.status).to.equal(400);
    expect(twice.body.error.details.fields[0].field).to.equal('platforms[1].channels[0].channelId');
    expect((await relay.client.get('/platforms')).body).to.deep.equal([]);
    const good = await relay.client.request('POST', '/platforms/upload', { platforms: [{ id: 'a', name: 'A', channels: [{ channelId: 'a1', name: 'A1', input: 'udp://239.0.0.1:5000', outputs: ['udp://127.0.0.1:7000'] }] }, { id: 'b', name: 'B' }] });
    expect(good.status).to.equal(201);
    expect(good.body.map((p: { id: string }) => p.id)).to.deep.equal(['a', 'b']);
    expect((await relay.client.get('/platforms')).headers.get('x-total-count')).to.equal('2');
  });

  it('sets channel and output states and bitrate readings through the state-setting endpoints (201), 400 for a bad body', async () => {
    expect((await relay.client.request('POST', '/setAllChannelStates', { state: 'error' })).status).to.equal(201);
    expect((await relay.client.get('/platforms/a')).body.channels[0].state).to.equal('error');
    const channel = await relay.client.request('POST', '/setChannelState', { channelId: 'a1', state: 'no-signal', error: null });
    expect(channel.status).to.equal(201);
    expect(channel.body.state).to.equal('no-signal');
    expect((await relay.client.request('POST', '/setAllOutputStates', { state: 'sending' })).body.channels[0].outputState).to.deep.equal([{ url: 'udp://127.0.0.1:7000', state: 'sending', error: null }]);
    const output = await relay.client.request('POST', '/setChannelOutputStateAndError', { channelId: 'a1', output: 'udp://127.0.0.1:7000', state: 'error', error: 'cable cut' });
    expect(output.body.outputState).to.deep.equal([{ url: 'udp://127.0.0.1:7000', state: 'error', error: 'cable cut' }]);
    expect((await relay.client.request('POST', '/setChannelOutputStateAndError', { channelId: 'a1', output: 3, state: 'idle' })).body.error.details.fields[0].field).to.equal('output');
    expect((await relay.client.request('POST', '/setChannelState', { channelId: 'a1', state: 'flying' })).status).to.equal(400);
    expect((await relay.client.request('POST', '/setChannelState', { channelId: 'zz', state: 'running' })).status).to.equal(404);
    const reading = await relay.client.request('POST', '/updateChannelBitrate', { channelId: 'a1', inputBitrate: 1_000_000, outputBitrate: 2_000_000, time: '2026-01-01T00:00:00.000Z' });
    expect(reading.status).to.equal(201);
    const [bitrates] = (await relay.client.get('/bitrates?channelId=a1')).body;
    expect(bitrates).to.include({ inputBitrate: 1_000_000, outputBitrate: 2_000_000, time: '2026-01-01T00:00:00.000Z' });
    expect(bitrates.history).to.have.length(1);
    expect((await relay.client.request('POST', '/clearBitrateArray', {})).body).to.deep.equal({ cleared: ['a1'] });
    expect((await relay.client.get('/bitrates?channelId=a1')).body[0].history).to.deep.equal([]);
    expect((await relay.client.request('POST', '/updateChannelBitrate', { channelId: 'a1', inputBitrate: -1, outputBitrate: 0 })).status).to.equal(400);
  });

  it('re-packs datagrams of any size into 7 × 188 bytes when asked, keeping every byte in order', async () => {
    const input = await freeUdpPort();
    const out = createSocket('udp4');
    const received: Buffer[] = [];
    out.on('message', (m) => received.push(m));
    await new Promise<void>((resolve) => out.bind(0, '127.0.0.1', resolve));
    await relay.client.request('PUT', '/platforms/b', { name: 'B', channels: [{ channelId: 'b1', name: 'B1', input: `udp://127.0.0.1:${input}`, outputs: [`udp://127.0.0.1:${out.address().port}`], repack: true }] });
    await relay.client.request('POST', '/channels/command?channelId=b1&command=start');
    const packets = Buffer.alloc(30 * 188);
    for (let i = 0; i < 30; i++) {
      packets[i * 188] = 0x47;
      packets[i * 188 + 4] = i;
    }
    const sender = createSocket('udp4');
    // Datagrams of 3 and 1 packets: 28 packets make 4 datagrams of 7, 2 wait.
    for (let at = 0, i = 0; at < 30 * 188; i++) {
      const size = (i % 2 === 0 ? 3 : 1) * 188;
      await new Promise<void>((resolve) => sender.send(packets.subarray(at, at + size), input, '127.0.0.1', () => resolve()));
      at += size;
    }
    await eventually(() => (received.length === 4 ? true : undefined), 3000, '4 re-packed datagrams');
    expect(received.map((d) => d.length)).to.deep.equal([1316, 1316, 1316, 1316]);
    expect(Buffer.concat(received).equals(packets.subarray(0, 28 * 188))).to.equal(true);
    sender.close();
    out.close();
    await relay.client.request('POST', '/channels/command', { channelId: 'b1', command: 'stop' });
  });

  it('detects a stopped channel by opening its input for the time asked, and says when nothing arrived', async () => {
    const detect = await relay.client.request('POST', '/channels/b1/command?command=detect&durationMs=300');
    expect(detect.status).to.equal(200);
    expect(detect.body.detection).to.include({ channelId: 'b1', bytes: 0, problem: detect.body.detection.problem });
    expect(detect.body.detection.problem).to.match(/^nothing arrived in \d+ ms$/);
    expect((await relay.client.get('/streamDetectionInfo?channelId=b1')).body).to.deep.equal([detect.body.detection]);
    expect((await relay.client.request('POST', '/channels/command', { channelId: 'b1', command: 'detect', durationMs: 50 })).status).to.equal(400);
    expect((await relay.client.get('/streamDetectionInfo?channelId=nope')).status).to.equal(404);
  });
});
