import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createKlvAwareTsDemuxer, type MetadataPacketObservation, type StreamHelloMessage, type StreamKlvMessage, type StreamStatusMessage } from '@klvscope/core';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { APP_VERSION } from '../../src/app-version.js';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { connectViewer } from './stream-client.js';
import { tempFolder } from './temp-folder.js';

const PACKET = 188;

function metadataPacketsOf(bytes: Uint8Array): MetadataPacketObservation[] {
  const packets: MetadataPacketObservation[] = [];
  const demuxer = createKlvAwareTsDemuxer((o) => void (o.kind === 'metadata-packet' && packets.push(o)), { klvFields: false });
  demuxer.push(bytes);
  demuxer.end();
  return packets;
}

function pidOf(bytes: Uint8Array, pos: number): number {
  return ((bytes[pos + 1] & 0x1f) << 8) | bytes[pos + 2];
}

async function command(server: RunningStreamingServer, body: unknown, authorization?: string): Promise<{ status: number; json: Record<string, unknown>; challenge: string | null }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (authorization !== undefined) headers.authorization = authorization;
  const response = await fetch(`${server.url}/command`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown>, challenge: response.headers.get('www-authenticate') };
}

describe('the streaming module on a real socket, over a real fixture replayed by its PCR', function () {
  this.timeout(30_000);
  let server: RunningStreamingServer;
  let fixture: Uint8Array;

  before(async function () {
    const path = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    fixture = new Uint8Array(readFileSync(path));
    server = await startStreamingServer({ dataDir: tempFolder('streaming'), port: 0, env: {}, config: { source: pathToFileURL(path).href, channelName: 'ch-1' } });
  });

  after(async () => {
    await server?.close();
  });

  it('gives a viewer the PAT, the PMT, then the stream byte for byte from a video random access point, with a hello naming its PTS', async () => {
    const viewer = await connectViewer(server.url);
    await viewer.until(() => viewer.bytes().length > 200 * PACKET, 10_000, '200 packets');
    viewer.close();
    const bytes = viewer.bytes();
    expect(bytes.length % PACKET).to.equal(0);
    expect(pidOf(bytes, 0)).to.equal(0);
    expect(pidOf(bytes, PACKET)).to.equal(0x1000);
    const rest = bytes.subarray(2 * PACKET);
    expect(pidOf(rest, 0)).to.equal(0x100);
    // The bytes after the tables are a run of the file itself, from a packet boundary.
    let at = -1;
    for (let pos = 0; pos < fixture.length; pos += PACKET) {
      if (Buffer.compare(fixture.subarray(pos, pos + 4 * PACKET), rest.subarray(0, 4 * PACKET)) === 0) at = pos;
    }
    expect(at).to.be.greaterThan(-1);
    const run = Math.min(rest.length, fixture.length - at);
    expect(Buffer.compare(fixture.subarray(at, at + run), rest.subarray(0, run))).to.equal(0);
    const hello = viewer.messages[0] as StreamHelloMessage;
    expect(hello).to.include({ type: 'hello', videoPid: 0x100, noPictureReason: null, mapTileUrl: null });
    // The PES header's PTS of the first video packet (ISO 13818-1 2.4.3.7).
    const pesAt = 4 + ((rest[3] & 0x20) !== 0 ? 1 + rest[4] : 0);
    const p = pesAt + 9;
    const pts = ((rest[p] >> 1) & 0x07) * 2 ** 30 + ((rest[p + 1] << 22) | ((rest[p + 2] >> 1) << 15) | (rest[p + 3] << 7) | (rest[p + 4] >> 1));
    expect(hello.startPts90kHz).to.equal(pts);
  });

  it("sends every decoded KLV packet as JSON with the fixture's PTS and values, and a status every second", async () => {
    const viewer = await connectViewer(server.url);
    await viewer.until(() => viewer.messages.filter((m) => m.type === 'klv').length >= 30 && viewer.messages.some((m) => m.type === 'status'), 10_000, '30 KLV messages and a status');
    viewer.close();
    const klv = viewer.messages.filter((m): m is StreamKlvMessage => m.type === 'klv');
    expect(klv.length).to.be.at.least(30);
    const expected = metadataPacketsOf(fixture);
    for (const message of klv.slice(0, 20)) {
      const same = expected.find((packet) => packet.pts90kHz === message.pts90kHz);
      expect(same, `a packet of PTS ${message.pts90kHz} in the fixture`).to.not.equal(undefined);
      const latitude = same?.items.find((item) => item.tag === 13)?.value;
      expect(message).to.deep.include({ pid: 0x101, carriage: 'async', standard: 'MISB ST 0601', checksumValid: true });
      expect(message.values.sensorLatitudeDeg).to.equal(latitude);
      expect(message.values.corners).to.have.length(4);
    }
    const status = viewer.messages.find((m): m is StreamStatusMessage => m.type === 'status') as StreamStatusMessage;
    expect(status).to.deep.include({ concurrentClients: 16, streaming: true });
    expect(status.source.state).to.equal('receiving');
  });

  it('answers GET /info with every field of the spec, typed as the spec says and true to the stream', async () => {
    const viewer = await connectViewer(server.url);
    await viewer.until(() => viewer.messages.some((m) => m.type === 'status'), 10_000, 'a status message');
    const info = (await (await fetch(`${server.url}/info`)).json()) as Record<string, unknown>;
    viewer.close();
    const types: Record<string, string> = {
      activeConnections: 'number', channelName: 'string', concurrentClients: 'number', demo: 'boolean', demoExpired: 'boolean', missionName: 'string',
      noKlv: 'boolean', nodeInfo: 'string', poster: 'string', recorderEnabled: 'boolean', url: 'string', useCapture: 'boolean', version: 'string',
      videoBitrate: 'number', videoPassThrough: 'boolean', videoResolution: 'string',
    };
    for (const [field, type] of Object.entries(types)) expect(typeof info[field], field).to.equal(type);
    expect(info).to.deep.include({ activeConnections: 1, channelName: 'ch-1', concurrentClients: 16, noKlv: false, version: APP_VERSION, videoPassThrough: true, demo: true, demoExpired: false, streaming: true });
    expect(info.url).to.match(/^file:\/\/\/.*osh-addons_sample-stream\.ts$/);
    expect(info.nodeInfo).to.match(/^node-[0-9a-f]{32}$/);
    // ST 0601 item 3 of this fixture.
    expect(info.missionName).to.equal('0');
    // Read from the H.264 sequence parameter set (MANIFEST: 640x480).
    expect(info.videoResolution).to.equal('640x480');
    expect(info.source).to.deep.include({ state: 'receiving', message: null });
    expect(Number.isInteger(info.activeConnections) && Number.isInteger(info.videoBitrate)).to.equal(true);
    const poster = await fetch(`${server.url}/${String(info.poster)}`);
    expect(poster.headers.get('content-type')).to.equal('image/svg+xml');
  });

  it('refuses POST /command without credentials or with wrong ones: 401, the JSON error body and a Basic challenge', async () => {
    const none = await command(server, { service: 'recorder', command: 'stop', params: '' });
    expect(none.status).to.equal(401);
    expect(none.json).to.deep.nested.include({ 'error.code': 'ERR_CREDENTIALS_MISSING' });
    expect(none.challenge).to.match(/^Basic realm="/);
    const wrong = await command(server, { service: 'recorder', command: 'stop', params: '' }, `Basic ${server.credentials.user} not-the-password`);
    expect(wrong.status).to.equal(401);
    expect(wrong.json).to.deep.nested.include({ 'error.code': 'ERR_CREDENTIALS_WRONG' });
    expect(wrong.challenge).to.match(/^Basic realm="/);
  });

  it('takes both header forms, and stops and starts streaming, the answer being the new state', async () => {
    const { user, password } = server.credentials;
    const rfc = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    const stopped = await command(server, { service: 'streamer', command: 'stop', params: '' }, rfc);
    expect(stopped.status).to.equal(200);
    expect(stopped.json).to.deep.include({ service: 'streamer', streaming: false });
    expect(stopped.json.source).to.deep.include({ state: 'stopped' });
    const info = (await (await fetch(`${server.url}/info`)).json()) as { streaming: boolean; source: { state: string } };
    expect(info).to.deep.include({ streaming: false });
    const started = await command(server, { service: 'streamer', command: 'start', params: '' }, `Basic ${user} ${password}`);
    expect(started.status).to.equal(200);
    expect(started.json).to.deep.include({ service: 'streamer', streaming: true });
    const viewer = await connectViewer(server.url);
    await viewer.until(() => viewer.bytes().length > 0, 10_000, 'bytes after start');
    viewer.close();
  });

  it('answers a bad command body and an unknown combination with 400 and the JSON error body', async () => {
    const auth = `Basic ${server.credentials.user} ${server.credentials.password}`;
    const notJson = await command(server, '{"service":', auth);
    expect(notJson.status).to.equal(400);
    expect(notJson.json).to.deep.nested.include({ 'error.code': 'ERR_MALFORMED_JSON' });
    const badService = await command(server, { service: 'player', command: 'start', params: '' }, auth);
    expect(badService.status).to.equal(400);
    expect(badService.json).to.deep.nested.include({ 'error.code': 'ERR_INVALID_FIELD' });
    const recorderExit = await command(server, { service: 'recorder', command: 'exit', params: '' }, auth);
    expect(recorderExit.status).to.equal(400);
    expect(recorderExit.json).to.deep.nested.include({ 'error.code': 'ERR_COMMAND_UNKNOWN' });
    const missing = await command(server, { service: 'streamer' }, auth);
    expect(missing.status).to.equal(400);
    const unknownRoute = await fetch(`${server.url}/nothing-here`);
    expect(unknownRoute.status).to.equal(404);
    expect(((await unknownRoute.json()) as { error: { code: string } }).error.code).to.match(/^ERR_/);
  });
});
