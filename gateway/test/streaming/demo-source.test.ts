import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StreamKlvMessage } from '@klvscope/core';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { connectViewer } from './stream-client.js';

describe('the streaming module with no source configured', function () {
  this.timeout(30_000);
  let server: RunningStreamingServer;

  before(async () => {
    server = await startStreamingServer({ dataDir: mkdtempSync(join(tmpdir(), 'klvscope-demo-')), port: 0, env: {} });
  });

  after(async () => {
    await server?.close();
  });

  it('streams the built-in demo: H.264 640x360 with synchronous ST 0601 KLV, one packet per frame with its PTS', async () => {
    const viewer = await connectViewer(server.url);
    await viewer.until(() => viewer.messages.filter((m) => m.type === 'klv').length >= 45, 10_000, '45 KLV messages');
    viewer.close();
    const hello = viewer.messages.find((m) => m.type === 'hello');
    expect(hello).to.deep.include({ videoPid: 0x100, noPictureReason: null });
    const klv = viewer.messages.filter((m): m is StreamKlvMessage => m.type === 'klv');
    for (const message of klv) expect(message).to.deep.include({ carriage: 'sync', standard: 'MISB ST 0601', checksumValid: true });
    // 30 frames a second: consecutive packets 3000 ticks of 90 kHz apart.
    for (let i = 1; i < klv.length; i++) expect(Number(klv[i].pts90kHz) - Number(klv[i - 1].pts90kHz)).to.equal(3000);
    const latitudes = new Set(klv.map((m) => m.values.sensorLatitudeDeg));
    expect(latitudes.size, 'the aircraft moves').to.be.greaterThan(10);
    const info = (await (await fetch(`${server.url}/info`)).json()) as Record<string, unknown>;
    expect(info).to.deep.include({ url: 'demo://built-in', missionName: 'KLVSCOPE-DEMO', videoResolution: '640x360', noKlv: false, videoCodec: 'H.264' });
    expect(info.source).to.deep.include({ state: 'receiving' });
  });
});
