import { expect } from 'chai';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { replayFile } from '@klvscope/adapters';
import type { SourceStatus } from '@klvscope/core';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { connectViewer } from './stream-client.js';
import { tempFolder } from './temp-folder.js';

async function sourceOf(server: RunningStreamingServer): Promise<SourceStatus> {
  return ((await (await fetch(`${server.url}/info`)).json()) as { source: SourceStatus }).source;
}

async function until(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the source state of the streaming module', function () {
  this.timeout(40_000);
  let server: RunningStreamingServer | null = null;

  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('reports a UDP source that goes silent, and picks the stream up again when data returns, the viewer starting over', async function () {
    const fixture = fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts');
    const port = await freeUdpPort();
    server = await startStreamingServer({ dataDir: tempFolder('source-state'), port: 0, env: {}, config: { source: `udp://127.0.0.1:${port}`, silenceMs: 500 } });
    const running = server;
    expect((await sourceOf(running)).state).to.equal('starting');
    const viewer = await connectViewer(running.url);
    await replayFile(fixture, `udp://127.0.0.1:${port}`);
    expect((await sourceOf(running)).state).to.equal('receiving');
    await until(async () => (await sourceOf(running)).state === 'silent', 5_000, 'the silent state');
    const silent = await sourceOf(running);
    expect(silent.message).to.match(/^no data from the source for \d+\.\d s$/);
    const hellosBefore = viewer.messages.filter((m) => m.type === 'hello').length;
    expect(hellosBefore).to.equal(1);
    await replayFile(fixture, `udp://127.0.0.1:${port}`);
    expect((await sourceOf(running)).state).to.equal('receiving');
    await viewer.until(() => viewer.messages.filter((m) => m.type === 'hello').length === 2, 5_000, 'a second hello');
    viewer.close();
  });

  it('reports a source that cannot be opened as failed with the reason, and opens it once it can', async function () {
    const fixture = fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts');
    const dir = tempFolder('source-state');
    const path = join(dir, 'later.ts');
    server = await startStreamingServer({ dataDir: dir, port: 0, env: {}, config: { source: pathToFileURL(path).href, retryMs: 100 } });
    const running = server;
    await until(async () => (await sourceOf(running)).state === 'failed', 5_000, 'the failed state');
    expect((await sourceOf(running)).message).to.match(/^the source cannot be opened: .*later\.ts/);
    copyFileSync(fixture, path);
    await until(async () => (await sourceOf(running)).state === 'receiving', 5_000, 'the receiving state');
  });
});
