import { expect } from 'chai';
import { createSocket, type Socket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replayFile } from '@klvscope/adapters';
import { generateTransportStream, type SourceStatus } from '@klvscope/core';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { connectViewer } from './stream-client.js';
import { tempFolder } from './temp-folder.js';

/** Datagrams of 1316 bytes (seven packets' worth) of pseudo-random bytes with no 0x47 in them: nothing in them is a TS packet. */
function noiseDatagrams(count: number): Buffer[] {
  let seed = 36;
  const datagrams: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const datagram = Buffer.alloc(1316);
    for (let j = 0; j < datagram.length; j++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const byte = seed >> 23;
      datagram[j] = byte === 0x47 ? 0x46 : byte;
    }
    datagrams.push(datagram);
  }
  return datagrams;
}

function send(sender: Socket, datagram: Buffer, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => sender.send(datagram, port, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
}

describe('the streaming module fed datagrams that are not MPEG-TS', function () {
  this.timeout(20_000);
  let server: RunningStreamingServer | null = null;

  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('passes none of them to the viewers, never says receiving, and says why once the silence time is over', async () => {
    const port = await freeUdpPort();
    server = await startStreamingServer({ dataDir: tempFolder('non-ts'), port: 0, env: {}, config: { source: `udp://127.0.0.1:${port}`, silenceMs: 500 } });
    const viewer = await connectViewer(server.url);
    const sender = createSocket('udp4');
    const states = new Set<string>();
    let last: SourceStatus | null = null;
    // 40 datagrams over 2 s: longer than the silence time.
    for (const datagram of noiseDatagrams(40)) {
      await send(sender, datagram, port);
      await new Promise((resolve) => setTimeout(resolve, 50));
      last = ((await (await fetch(`${server.url}/info`)).json()) as { source: SourceStatus }).source;
      states.add(last.state);
    }
    sender.close();
    viewer.close();
    expect(viewer.bytes().length).to.equal(0);
    expect(states.has('receiving')).to.equal(false);
    expect(last?.state).to.equal('silent');
    expect(last?.message).to.match(/^no MPEG-TS from the source for \d+\.\d s: [\d,]+ bytes arrived that are not TS packets$/);
  });

  it('passes a viewer only TS packets when noise follows a real feed', async () => {
    const dir = tempFolder('non-ts');
    const port = await freeUdpPort();
    const feed = join(dir, 'feed.ts');
    writeFileSync(feed, generateTransportStream({ durationSeconds: 2, bitrate: 2_000_000, klv: {} }).bytes);
    server = await startStreamingServer({ dataDir: dir, port: 0, env: {}, config: { source: `udp://127.0.0.1:${port}` } });
    const viewer = await connectViewer(server.url);
    await replayFile(feed, `udp://127.0.0.1:${port}`);
    const sender = createSocket('udp4');
    for (const datagram of noiseDatagrams(20)) await send(sender, datagram, port);
    sender.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    viewer.close();
    const bytes = viewer.bytes();
    expect(bytes.length).to.be.greaterThan(100 * 188);
    expect(bytes.length % 188).to.equal(0);
    let notTs = 0;
    for (let pos = 0; pos < bytes.length; pos += 188) if (bytes[pos] !== 0x47) notTs++;
    expect(notTs).to.equal(0);
  });
});
