import { expect } from 'chai';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replayFile } from '@klvscope/adapters';
import { generateTransportStream, type RecorderStatus } from '@klvscope/core';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { runCli } from '../cli/run-cli.js';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';

interface InspectedPid {
  pid: number;
  packets: number;
  continuityErrors: number;
}

function inspectPids(path: string): InspectedPid[] {
  const result = runCli(['inspect', path, '--json', '--fail-on', 'never']);
  expect(result.status, result.stderr).to.equal(0);
  return (JSON.parse(result.stdout) as { pids: InspectedPid[] }).pids.map(({ pid, packets, continuityErrors }) => ({ pid, packets, continuityErrors }));
}

async function recorderCommand(server: RunningStreamingServer, command: 'start' | 'stop'): Promise<{ status: number; json: RecorderStatus & { error?: { code: string } } }> {
  const { user, password } = server.credentials;
  const response = await fetch(`${server.url}/command`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${user} ${password}` },
    body: JSON.stringify({ service: 'recorder', command, params: '' }),
  });
  return { status: response.status, json: (await response.json()) as RecorderStatus & { error?: { code: string } } };
}

/** The spec's `timeStarted`: a date-time text with time zone. */
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

async function recorderState(server: RunningStreamingServer): Promise<RecorderStatus> {
  return (await (await fetch(`${server.url}/recorderState`)).json()) as RecorderStatus;
}
import { tempFolder } from './temp-folder.js';

describe('the recorder of the streaming module', function () {
  this.timeout(90_000);
  let server: RunningStreamingServer | null = null;

  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('records a 30 s feed replayed over UDP: klvscope inspect finds no continuity error and the packets per PID that were sent', async () => {
    const dir = tempFolder('recorder');
    const sent = join(dir, 'sent.ts');
    writeFileSync(sent, generateTransportStream({ durationSeconds: 30, bitrate: 2_000_000, klv: {} }).bytes);
    const port = await freeUdpPort();
    const recordings = join(dir, 'recordings');
    server = await startStreamingServer({ dataDir: dir, port: 0, env: {}, config: { source: `udp://127.0.0.1:${port}`, channelName: 'uav-7', missionName: 'sortie 12', recordingsDir: recordings } });
    const initial = await recorderState(server);
    expect(initial).to.deep.include({ state: 'stopped', file: null, reason: null });
    expect(initial.timeStarted, 'a date-time text with time zone, as the spec types it').to.match(DATE_TIME);
    const started = await recorderCommand(server, 'start');
    expect(started.status).to.equal(200);
    expect(started.json.state).to.equal('running');
    expect(started.json.timeStarted).to.match(DATE_TIME);
    expect(await recorderState(server)).to.deep.include({ state: 'running', timeStarted: started.json.timeStarted });
    await replayFile(sent, `udp://127.0.0.1:${port}`);
    // The last datagrams reach the module before the recorder stops.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopped = await recorderCommand(server, 'stop');
    expect(stopped.json).to.deep.include({ state: 'stopped', file: null, reason: null });
    expect(Date.parse(stopped.json.timeStarted)).to.be.greaterThan(Date.parse(started.json.timeStarted));
    const files = readdirSync(recordings);
    expect(files).to.have.length(1);
    expect(files[0]).to.match(/^uav-7_sortie-12_\d{8}T\d{6}Z\.ts$/);
    const recorded = inspectPids(join(recordings, files[0]));
    expect(recorded.every((pid) => pid.continuityErrors === 0)).to.equal(true);
    expect(recorded).to.deep.equal(inspectPids(sent));
  });

  it('leaves no empty file when started and stopped while the source is stopped', async () => {
    const dir = tempFolder('recorder');
    const recordings = join(dir, 'recordings');
    server = await startStreamingServer({ dataDir: dir, port: 0, env: {}, config: { source: `udp://127.0.0.1:${await freeUdpPort()}`, recordingsDir: recordings } });
    await server.module.stopStreaming();
    expect((await recorderCommand(server, 'start')).json.state).to.equal('running');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopped = await recorderCommand(server, 'stop');
    expect(stopped.json).to.deep.include({ state: 'stopped', file: null, reason: null });
    expect(readdirSync(recordings)).to.deep.equal([]);
    expect(stopped.json.timeStarted).to.match(DATE_TIME);
  });

  it('refuses recorder start when the configuration disables it: 409, the state staying stopped', async () => {
    const dir = tempFolder('recorder');
    server = await startStreamingServer({ dataDir: dir, port: 0, env: {}, config: { source: `udp://127.0.0.1:${await freeUdpPort()}`, recorderEnabled: false } });
    const refused = await recorderCommand(server, 'start');
    expect(refused.status).to.equal(409);
    expect(refused.json.error?.code).to.equal('ERR_RECORDER_DISABLED');
    const state = await recorderState(server);
    expect(state.state).to.equal('stopped');
    expect(state.timeStarted).to.match(DATE_TIME);
    const info = (await (await fetch(`${server.url}/info`)).json()) as { recorderEnabled: boolean };
    expect(info.recorderEnabled).to.equal(false);
  });

  it('turns failed with the reason when its folder cannot be made, and streaming goes on', async () => {
    const dir = tempFolder('recorder');
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    server = await startStreamingServer({ dataDir: dir, port: 0, env: {}, config: { source: `udp://127.0.0.1:${await freeUdpPort()}`, recordingsDir: join(file, 'recordings') } });
    const failed = await recorderCommand(server, 'start');
    expect(failed.status).to.equal(200);
    expect(failed.json.state).to.equal('failed');
    expect(failed.json.reason).to.match(/a-file/);
    const info = (await (await fetch(`${server.url}/info`)).json()) as { streaming: boolean };
    expect(info.streaming).to.equal(true);
  });
});
