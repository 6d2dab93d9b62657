import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTsDemuxer, generateTransportStream } from '@klvscope/core';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { connectViewer } from './stream-client.js';
import { tempFolder } from './temp-folder.js';

/** A fast synthetic stream (40 Mb/s) on file, so that a viewer that does not read falls behind within a second or two. */
function fastStreamFile(dir: string): string {
  const path = join(dir, 'fast.ts');
  writeFileSync(path, generateTransportStream({ durationSeconds: 6, bitrate: 40_000_000, klv: {} }).bytes);
  return pathToFileURL(path).href;
}

function continuityErrors(bytes: Uint8Array): number {
  let errors = 0;
  const demuxer = createTsDemuxer((o) => void (o.kind === 'ts-error' && o.type === 'continuity-error' && errors++));
  demuxer.push(bytes);
  demuxer.end();
  return errors;
}

describe('the viewers of the streaming module', function () {
  this.timeout(90_000);
  let server: RunningStreamingServer | null = null;

  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('refuses a viewer over the configured limit with close code 1013 and a reason, and counts the connected ones', async () => {
    const dir = tempFolder('viewers');
    server = await startStreamingServer({ dataDir: dir, port: 0, env: {}, config: { source: fastStreamFile(dir), concurrentClients: 1 } });
    const first = await connectViewer(server.url);
    const second = await connectViewer(server.url);
    const closed = await second.closed;
    expect(closed.code).to.equal(1013);
    expect(closed.reason).to.equal('the viewer limit of 1 is reached: try again later');
    const info = (await (await fetch(`${server.url}/info`)).json()) as { activeConnections: number; concurrentClients: number };
    expect(info).to.include({ activeConnections: 1, concurrentClients: 1 });
    first.close();
    await first.closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(((await (await fetch(`${server.url}/info`)).json()) as { activeConnections: number }).activeConnections).to.equal(0);
  });

  it('drops a viewer that stops reading once its buffer passes the bound, and the viewer that reads gets every packet in order', async () => {
    const dir = tempFolder('viewers');
    server = await startStreamingServer({ dataDir: dir, port: 0, env: {}, config: { source: fastStreamFile(dir), maxViewerBufferBytes: 256 * 1024 } });
    const reader = await connectViewer(server.url);
    const sleeper = await connectViewer(server.url);
    // Its TCP socket paused: nothing more is read from the kernel.
    sleeper.socket.pause();
    // The paused client cannot see its connection end: the module's count tells.
    const running = server;
    await reader.until(() => running.module.droppedViewers === 1, 40_000, 'the sleeping viewer dropped');
    expect(running.module.viewerCount).to.equal(1);
    await reader.until(() => reader.bytes().length > 4 * 1024 * 1024, 40_000, '4 MB at the reading viewer');
    reader.close();
    expect(continuityErrors(reader.bytes())).to.equal(0);
  });
});
