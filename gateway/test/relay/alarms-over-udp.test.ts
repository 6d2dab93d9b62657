/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- JSON answers are read loosely: the assertions check their values */
import { expect } from 'chai';
import { createGenerator } from '@klvscope/core';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { sendPacedLoop } from '../../../test-support/paced-udp-sender.js';
import { eventually, relayForSuite } from './relay-test-server.js';

const STREAM = Buffer.concat([...createGenerator({ durationSeconds: 4, bitrate: 2_000_000, packetSize: 188, audio: false, seed: 5, faults: [], klv: { carriage: 'sync', rateHz: 30 } }).chunks()]);

describe('relay: alarms of a channel fed over UDP, in /api/bitrates and the log', function () {
  this.timeout(40_000);
  const relay = relayForSuite();
  let port: number;
  let sender: { stop(): void } | null = null;
  const bitrates = async () => (await relay.client.get('/bitrates?channelId=eo')).body[0];
  const alarmKinds = async () => ((await bitrates()).alarms as Array<{ kind: string; pid: number | null }>).map((a) => `${a.kind} ${a.pid ?? 'input'}`);
  const logOf = async (type: string) => ((await relay.client.get(`/logMessages?type=${type}&_sort=id`)).body as Array<{ message: string }>).map((m) => m.message);
  const feed = (bitsPerSecond: number) => {
    sender?.stop();
    sender = sendPacedLoop(STREAM, port, bitsPerSecond);
  };

  before(async () => {
    port = await freeUdpPort();
    const created = await relay.client.request('POST', '/platforms', {
      id: 'uav',
      name: 'UAV',
      channels: [{ channelId: 'eo', name: 'EO', input: `udp://127.0.0.1:${port}`, alarms: { minBitrate: 1_000_000, maxBitrate: 4_000_000, pids: [{ pid: 0x1000, maxBitrate: 100_000_000 }] } }],
    });
    expect(created.status).to.equal(201);
    expect(created.body.channels[0].alarms).to.deep.equal({ minBitrate: 1_000_000, maxBitrate: 4_000_000, maxSilenceMs: null, pids: [{ pid: 0x1000, minBitrate: null, maxBitrate: 100_000_000 }], windowSeconds: 1 });
  });

  after(() => sender?.stop());

  it('refuses limits that cannot be met, naming the field: a minimum above the maximum, a PID given twice', async () => {
    const refused = await relay.client.request('POST', '/platforms', {
      name: 'bad',
      channels: [{ name: 'x', input: 'udp://127.0.0.1:9', alarms: { minBitrate: 5, maxBitrate: 4, pids: [{ pid: 1 }, { pid: 1, minBitrate: 3, maxBitrate: 2 }] } }],
    });
    expect(refused.status).to.equal(400);
    expect(refused.body.error.code).to.equal('ERR_INVALID_FIELD');
    expect(refused.body.error.details.fields.map((f: { field: string }) => f.field)).to.have.members(['channels[0].alarms.minBitrate', 'channels[0].alarms.pids[1].pid', 'channels[0].alarms.pids[1].minBitrate']);
  });

  it('raises no alarm while the input stays within its limits', async () => {
    feed(2_000_000);
    expect((await relay.client.request('POST', '/channels/command', { channelId: 'eo', command: 'start' })).status).to.equal(200);
    await eventually(async () => ((await bitrates()).history.length >= 3 ? true : undefined), 8000, 'three readings');
    expect(await alarmKinds()).to.deep.equal([]);
    expect((await bitrates()).limits.minBitrate).to.equal(1_000_000);
  });

  it('raises an alarm when the rate drops below its minimum: in /api/bitrates, with a log message of type alarm', async () => {
    feed(300_000);
    await eventually(async () => ((await alarmKinds()).includes('bitrate-low input') ? true : undefined), 8000, 'the low-bitrate alarm');
    const [alarm] = (await bitrates()).alarms;
    expect(alarm.limit).to.equal(1_000_000);
    expect(alarm.value).to.be.below(1_000_000);
    const raised = await logOf('alarm');
    expect(raised).to.have.length(1);
    expect(raised[0]).to.match(/^channel eo: alarm: input bitrate below its minimum: [\d.]+ kb\/s \(minimum 1\.000 Mb\/s\)$/);
  });

  it('clears it with a message when the rate is back', async () => {
    feed(2_000_000);
    await eventually(async () => ((await alarmKinds()).length === 0 ? true : undefined), 8000, 'the alarm cleared');
    const cleared = await logOf('alarm-cleared');
    expect(cleared).to.have.length(1);
    expect(cleared[0]).to.match(/^channel eo: alarm cleared: input bitrate below its minimum \([\d.]+ Mb\/s, back within 1\.000 Mb\/s after \d+ s\)$/);
  });

  it("takes a PID's new limit from a PATCH without restarting the channel", async () => {
    const started = (await logOf('started')).length;
    const patched = await relay.client.request('PATCH', '/platforms/uav', {
      channels: [{ channelId: 'eo', name: 'EO', input: `udp://127.0.0.1:${port}`, alarms: { minBitrate: 1_000_000, pids: [{ pid: 0x100, maxBitrate: 100_000 }] } }],
    });
    expect(patched.status).to.equal(200);
    await eventually(async () => ((await alarmKinds()).includes('bitrate-high 256') ? true : undefined), 8000, 'the video PID above its maximum');
    expect((await logOf('started')).length, 'not restarted').to.equal(started);
    expect((await bitrates()).state).to.equal('running');
  });

  it('raises a silence alarm when the sender stops, and clears every alarm at stop', async () => {
    await relay.client.request('PATCH', '/platforms/uav', { channels: [{ channelId: 'eo', name: 'EO', input: `udp://127.0.0.1:${port}`, alarms: { maxSilenceMs: 300 } }] });
    sender?.stop();
    sender = null;
    await eventually(async () => ((await alarmKinds()).includes('silence input') ? true : undefined), 8000, 'the silence alarm');
    expect((await logOf('alarm')).at(-1)).to.match(/^channel eo: alarm: input silent: no datagram for [\d.]+ s \(maximum 0\.3 s\)$/);
    await relay.client.request('POST', '/channels/command', { channelId: 'eo', command: 'stop' });
    expect(await alarmKinds()).to.deep.equal([]);
    expect((await logOf('alarm-cleared')).at(-1)).to.equal('channel eo: alarm cleared: input silent (channel stopped)');
  });
});
