import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { until } from '../../../test-support/until.js';
import { runCli } from './run-cli.js';
import { connectViewer } from '../streaming/stream-client.js';
import { startService, type ServiceProcess } from './service-process.js';

/** Starts `klvscope stream` from the TypeScript sources and waits for its banner. */
function stream(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServiceProcess> {
  return startService(['stream', ...args], /streaming module on (http:\/\/\S+)/, 'recordings', env);
}

describe('klvscope stream', function () {
  this.timeout(30_000);

  it('prints its URL, source, credentials file and recordings folder, and ends with exit code 0 on the exit command, its viewers closed', async function () {
    const fixture = fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts');
    const dataDir = mkdtempSync(join(tmpdir(), 'klvscope-stream-cli-'));
    const server = await stream(['--source', pathToFileURL(fixture).href, '--port', '0', '--data-dir', dataDir], { KLVSCOPE_STREAM_USER: 'op', KLVSCOPE_STREAM_PASSWORD: 'pw' });
    expect(server.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.stdout()).to.include(`source     ${pathToFileURL(fixture).href}`).and.to.include(`recordings ${join(dataDir, 'recordings')}`).and.to.include('user and password: from the environment');
    const viewer = await connectViewer(server.url);
    const response = await fetch(`${server.url}/command`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Basic op pw' }, body: JSON.stringify({ service: 'streamer', command: 'exit', params: '' }) });
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.include({ service: 'streamer', exiting: true });
    expect(await server.exited).to.equal(0);
    expect((await viewer.closed).code).to.be.oneOf([1001, 1006]);
    expect(server.stdout()).to.include('klvscope: stopped');
  });

  it('stops cleanly on SIGTERM with exit code 0', async function () {
    const fixture = fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts');
    const dataDir = mkdtempSync(join(tmpdir(), 'klvscope-stream-cli-'));
    const server = await stream(['--source', pathToFileURL(fixture).href, '--port', '0', '--data-dir', dataDir]);
    expect(server.stdout()).to.include(`${join(dataDir, 'stream-credentials')} (new)`);
    server.child.kill('SIGTERM');
    expect(await server.exited).to.equal(0);
  });

  it('--recordings-keep-gb: starting the recorder deletes the oldest of the channel\'s recordings past the budget', async function () {
    const fixture = fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts');
    const dataDir = mkdtempSync(join(tmpdir(), 'klvscope-stream-cli-'));
    const recordings = join(dataDir, 'recordings');
    mkdirSync(recordings);
    // Three older recordings of the channel, 200 kB each, oldest first; 0.0005 GB keeps 500 kB of them.
    const older = ['klvscope_20261101T000000Z.ts', 'klvscope_20261102T000000Z.ts', 'klvscope_20261103T000000Z.ts'];
    for (const [i, name] of older.entries()) {
      writeFileSync(join(recordings, name), Buffer.alloc(200_000));
      utimesSync(join(recordings, name), 1_700_000_000 + i, 1_700_000_000 + i);
    }
    const server = await stream(['--source', pathToFileURL(fixture).href, '--port', '0', '--data-dir', dataDir, '--recordings-keep-gb', '0.0005'], { KLVSCOPE_STREAM_USER: 'op', KLVSCOPE_STREAM_PASSWORD: 'pw' });
    const command = (service: string, name: string) =>
      fetch(`${server.url}/command`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Basic op pw' }, body: JSON.stringify({ service, command: name, params: '' }) });
    expect((await command('recorder', 'start')).status).to.equal(200);
    await until('the oldest recording deleted', 10_000, () => !readdirSync(recordings).includes(older[0]));
    expect((await command('recorder', 'stop')).status).to.equal(200);
    // Oldest first: what is left of the older files is their newest end, and the new recording is kept.
    const left = readdirSync(recordings).sort();
    const olderLeft = older.filter((name) => left.includes(name));
    expect(olderLeft).to.deep.equal(older.slice(older.length - olderLeft.length));
    expect(olderLeft.length).to.be.below(older.length);
    expect(left.filter((name) => !older.includes(name))).to.have.length(1);
    await (await command('streamer', 'exit')).text();
    expect(await server.exited).to.equal(0);
  });

  it('refuses a size that is not a number of GB', () => {
    const { status, stderr } = runCli(['stream', '--recordings-keep-gb', '-1', '--port', '0']);
    expect(status).to.equal(2);
    expect(stderr).to.include("--recordings-keep-gb must be a number of GB above 0, e.g. 500 or 0.5, got '-1'");
  });

  it('refuses a bad option value with exit code 2 and one line on stderr', () => {
    const { status, stderr } = runCli(['stream', '--source', 'http://x', '--port', '0']);
    expect(status).to.equal(2);
    expect(stderr).to.match(/^klvscope: invalid streaming configuration: source must be udp:\/\/…, file:\/\/\/… or serial:…, got 'http:\/\/x'\n$/);
  });
});
