/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-explicit-any -- JSON answers are read loosely: the assertions check their values */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { createGenerator } from '@klvscope/core';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { sendPacedLoop } from '../../../test-support/paced-udp-sender.js';
import { relayForSuite } from './relay-test-server.js';

describe('relay: stream detection names every stream and counts problems by kind and severity', function () {
  this.timeout(30_000);
  const relay = relayForSuite();

  /** Starts a channel on a free port, feeds it `bytes` looping at `bitsPerSecond`, and detects for 1.5 s. */
  async function detectLooped(channelId: string, bytes: Uint8Array, bitsPerSecond: number): Promise<any> {
    const port = await freeUdpPort();
    const created = await relay.client.request('POST', '/platforms', { id: `p-${channelId}`, name: channelId, channels: [{ channelId, name: channelId, input: `udp://127.0.0.1:${port}` }] });
    expect(created.status).to.equal(201);
    expect((await relay.client.request('POST', '/channels/command', { channelId, command: 'start' })).body.channel.state).to.equal('running');
    const sender = sendPacedLoop(bytes, port, bitsPerSecond);
    try {
      const detect = await relay.client.request('POST', '/channels/command', { channelId, command: 'detect', durationMs: 1500 });
      expect(detect.status).to.equal(200);
      return detect.body.detection;
    } finally {
      sender.stop();
      await relay.client.request('POST', '/channels/command', { channelId, command: 'stop' });
    }
  }

  it('lists the AAC audio stream beside the video and the KLV, each with its kind', async () => {
    const stream = createGenerator({ durationSeconds: 4, bitrate: 2_000_000, packetSize: 188, audio: true, seed: 3, faults: [], klv: { carriage: 'sync', rateHz: 30 } });
    const detection = await detectLooped('with-audio', Buffer.concat([...stream.chunks()]), 2_000_000);
    expect(detection.problem).to.equal(null);
    const kinds = detection.streams.map((s: { kind: string; codec: string }) => `${s.kind} ${s.codec}`);
    expect(kinds).to.have.members(['video H.264/AVC video', 'audio AAC audio (ADTS)', 'klv MISB ST 0601']);
    const audio = detection.streams.find((s: { kind: string }) => s.kind === 'audio');
    expect(audio.streamType).to.equal(0x0f);
    expect(audio.packets).to.be.above(0);
    const logs = (await relay.client.get('/logMessages?type=detection-done')).body as Array<{ message: string }>;
    expect(logs.at(-1)?.message).to.include(`AAC audio (ADTS) PID ${audio.pid as number}`);
  });

  it('names a legacy EG 0104 set a warning of its own (not an unknown key), apart from the transport errors of the loop', async function () {
    const aphill = readFileSync(fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts'));
    // 409 KB at 3 Mb/s: the loop restarts within the 1.5 s of the detection, as the replay's did in the trial.
    const detection = await detectLooped('eg0104', aphill, 3_000_000);
    expect(detection.klv.map((k: { standards: string[] }) => k.standards)).to.deep.equal([['MISB EG 0104']]);
    const klvProblems = detection.problems.filter((p: { source: string }) => p.source === 'klv');
    const legacy = klvProblems.find((p: { type: string }) => p.type === 'klv-legacy-set');
    expect(legacy).to.deep.equal({ source: 'klv', type: 'klv-legacy-set', severity: 'warning', count: detection.klv[0].packets });
    expect(klvProblems.map((p: { type: string }) => p.type)).not.to.include('klv-unknown-key');
    // The loop's restarts are the transport's: continuity errors, counted apart.
    const transport = detection.problems.filter((p: { source: string }) => p.source === 'transport');
    expect(transport.map((p: { type: string }) => p.type)).to.include('continuity-error');
    // Errors first, then warnings, then notes.
    const ranks = detection.problems.map((p: { severity: string }) => ['error', 'warning', 'info'].indexOf(p.severity));
    expect(ranks).to.deep.equal([...ranks].sort((a: number, b: number) => a - b));
    expect(detection.klvErrors['klv-legacy-set']).to.equal(legacy.count);
  });
});
