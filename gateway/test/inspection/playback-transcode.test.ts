/**
 * `GET /playback/{token}?video=h264` on a real inspection service and a real
 * ffmpeg: kwiver's aphill sample (MPEG-2 video, 360x240, 1 frame/s) comes
 * back as H.264 with the source's video PTS, from a cache the second request
 * reuses; an H.264 recording comes back untouched. Then the transcode
 * service alone: a failing ffmpeg and a missing one.
 */
import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFfmpeg } from '@klvscope/adapters';
import { createConsoleLogger, generateTransportStream, TsDemuxer } from '@klvscope/core';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { PlaybackTranscodes } from '../../src/inspection/playback-transcode.js';
import { startFileTestServer, type FileTestServer } from './file-test-server.js';

interface VideoPes {
  streamType: number;
  pts: number[];
}

/** The first video stream's type and its PES PTS, in order, decoded with core's demuxer. */
function videoPes(bytes: Uint8Array): VideoPes {
  let video: { pid: number; streamType: number } | null = null;
  const pts: number[] = [];
  const demuxer = new TsDemuxer((observation) => {
    if (observation.kind === 'pmt' && video === null) {
      const stream = observation.streams.find((s) => [0x01, 0x02, 0x1b, 0x24].includes(s.streamType));
      if (stream) video = { pid: stream.pid, streamType: stream.streamType };
    }
    if (observation.kind === 'pes' && video !== null && observation.pid === video.pid && observation.pts90kHz !== null) pts.push(observation.pts90kHz);
  });
  demuxer.push(bytes);
  return { streamType: (video as { streamType: number } | null)?.streamType ?? -1, pts };
}

async function openPlayback(server: FileTestServer, filePath: string): Promise<string> {
  const session = await server.call('/sessions/file', { method: 'POST', body: { filePath } });
  expect(session.status, session.text).to.equal(201);
  return new URL((session.json as { playback: { url: string } }).playback.url, server.url).href;
}

/** Polls the H.264 variant until it is served; the progress answers seen on the way. */
async function transcoded(url: string): Promise<{ response: Response; progress: number[] }> {
  const progress: number[] = [];
  for (const started = Date.now(); Date.now() - started < 60_000; ) {
    const response = await fetch(`${url}?video=h264`);
    if (response.status !== 202) return { response, progress };
    const body = (await response.json()) as { status: string; video: string; progress: number };
    expect(body).to.include({ status: 'transcoding', video: 'h264' });
    expect(response.headers.get('retry-after')).to.equal('1');
    progress.push(body.progress);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the transcode did not finish within 60 s');
}

describe('inspection service: the H.264 variant of a recording (ffmpeg)', function () {
  this.timeout(90_000);
  let server: FileTestServer | null = null;

  before(async function () {
    if (findFfmpeg() === null) {
      console.log('      skipped: no ffmpeg on the PATH (apt-get install ffmpeg)');
      this.skip();
    }
    server = await startFileTestServer();
  });

  after(async () => {
    await server?.close();
  });

  it('transcodes MPEG-2 video to H.264 keeping every video PTS, serves it with Range requests, and reuses the cache', async function () {
    const fixture = fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts');
    const source = videoPes(readFileSync(fixture));
    expect(source.streamType).to.equal(0x02);
    const url = await openPlayback(server!, fixture);

    const { response, progress } = await transcoded(url);
    expect(response.status).to.equal(200);
    expect(progress.length, 'at least one 202 while ffmpeg ran').to.be.greaterThan(0);
    expect(progress.every((p) => p >= 0 && p < 1)).to.equal(true);
    expect(response.headers.get('content-type')).to.equal('video/mp2t');
    const bytes = new Uint8Array(await response.arrayBuffer());
    const served = videoPes(bytes);
    expect(served.streamType).to.equal(0x1b);
    expect([...new Set(served.pts)].sort((a, b) => a - b)).to.deep.equal([...new Set(source.pts)].sort((a, b) => a - b));

    const cache = join(server!.dataDir, 'playback-cache');
    expect(readdirSync(cache)).to.have.length(1);
    expect(readdirSync(cache)[0]).to.match(/^[0-9a-f]{64}-h264\.ts$/);

    const range = await fetch(`${url}?video=h264`, { headers: { range: 'bytes=188-375' } });
    expect(range.status).to.equal(206);
    expect(range.headers.get('content-range')).to.equal(`bytes 188-375/${bytes.length}`);
    expect(new Uint8Array(await range.arrayBuffer())).to.deep.equal(bytes.subarray(188, 376));

    // A second request: the cached file at once, no ffmpeg.
    const again = await fetch(`${url}?video=h264`);
    expect(again.status).to.equal(200);
    expect(new Uint8Array(await again.arrayBuffer())).to.deep.equal(bytes);
    // Without the parameter: the recording as it is.
    const original = await fetch(url);
    expect(new Uint8Array(await original.arrayBuffer())).to.deep.equal(new Uint8Array(readFileSync(fixture)));
  });

  it('serves an H.264 recording untouched, without transcoding it', async () => {
    const { bytes } = generateTransportStream({ durationSeconds: 2, bitrate: 1_000_000, seed: 7, klv: { carriage: 'async' } });
    const file = join(server!.root, 'h264.ts');
    writeFileSync(file, bytes);
    const url = await openPlayback(server!, file);
    const response = await fetch(`${url}?video=h264`);
    expect(response.status).to.equal(200);
    expect(new Uint8Array(await response.arrayBuffer())).to.deep.equal(bytes);
  });
});

describe('playback transcodes: failures', function () {
  this.timeout(30_000);
  let dir: string;
  let source: string;
  const log = createConsoleLogger('error');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'klvscope-playback-cache-'));
    source = join(dir, 'mpeg2.ts');
    // Not H.264 as far as the PMT says: an MPEG-2 stream type is enough to ask for a transcode.
    writeFileSync(source, generateTransportStream({ durationSeconds: 1, bitrate: 500_000, seed: 3, videoStreamType: 0x02 }).bytes);
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("reports a failing ffmpeg's reason once, leaves nothing half-written, and tries again on the next request", async () => {
    const transcodes = new PlaybackTranscodes(join(dir, 'cache'), () => ({ path: '/bin/false' }), log);
    expect(await transcodes.request('a'.repeat(64), source)).to.deep.equal({ state: 'transcoding', progress: 0 });
    await transcodes.settled('a'.repeat(64));
    const failed = await transcodes.request('a'.repeat(64), source);
    expect(failed.state).to.equal('failed');
    expect((failed as { message: string }).message).to.match(/ffmpeg exited with code 1/);
    expect(readdirSync(join(dir, 'cache'))).to.deep.equal([]);
    expect((await transcodes.request('a'.repeat(64), source)).state).to.equal('transcoding');
    await transcodes.close();
  });

  it('says why without ffmpeg', async () => {
    const transcodes = new PlaybackTranscodes(join(dir, 'cache'), () => ({ missing: 'no ffmpeg on the PATH' }), log);
    expect(await transcodes.request('b'.repeat(64), source)).to.deep.equal({ state: 'unavailable', message: 'no ffmpeg on the PATH' });
  });
});
