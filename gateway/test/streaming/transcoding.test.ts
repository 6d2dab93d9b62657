import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findFfmpeg } from '@klvscope/adapters';
import { createTsDemuxer, type PmtObservation, type StreamHelloMessage, type StreamKlvMessage } from '@klvscope/core';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { connectViewer } from './stream-client.js';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'klvscope-transcoding-'));
}

function pmtOf(bytes: Uint8Array): PmtObservation | null {
  let pmt: PmtObservation | null = null;
  const demuxer = createTsDemuxer((o) => void (o.kind === 'pmt' && (pmt ??= o)));
  demuxer.push(bytes);
  demuxer.end();
  return pmt;
}

describe('the streaming module with video the browser cannot play', function () {
  this.timeout(60_000);
  let server: RunningStreamingServer | null = null;
  const savedFfmpeg = process.env.KLVSCOPE_FFMPEG;

  afterEach(async () => {
    await server?.close();
    server = null;
    if (savedFfmpeg === undefined) delete process.env.KLVSCOPE_FFMPEG;
    else process.env.KLVSCOPE_FFMPEG = savedFfmpeg;
  });

  it('transcodes MPEG-2 video to H.264 with ffmpeg, the KLV carried through with the PTS of the source', async function () {
    const fixture = fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts');
    if (findFfmpeg() === null) {
      console.log('      skipped: no ffmpeg on the PATH (apt-get install ffmpeg)');
      this.skip();
    }
    server = await startStreamingServer({ dataDir: tempDir(), port: 0, env: {}, config: { source: pathToFileURL(fixture).href } });
    const viewer = await connectViewer(server.url);
    await viewer.until(() => viewer.bytes().length > 100 * 188 && viewer.messages.filter((m) => m.type === 'klv').length >= 20, 30_000, 'transcoded bytes and 20 KLV messages');
    viewer.close();
    const hello = viewer.messages.find((m): m is StreamHelloMessage => m.type === 'hello');
    const video = pmtOf(viewer.bytes())?.streams.find((stream) => stream.pid === hello?.videoPid);
    expect(video?.streamType, 'the viewers get H.264').to.equal(0x1b);
    const klv = viewer.messages.filter((m): m is StreamKlvMessage => m.type === 'klv');
    // EG 0104 (the legacy universal set of this file), its items mapped to the ST 0601 values.
    expect(klv[0].standard).to.equal('MISB EG 0104');
    expect(klv[0].values.sensorLatitudeDeg).to.be.a('number');
    const info = (await (await fetch(`${server.url}/info`)).json()) as Record<string, unknown>;
    // Paced by its PCR, one a second: the file's own 30 KLV packets a second.
    expect(info.klvRateHz).to.be.within(20, 40);
    expect(info).to.deep.include({ videoPassThrough: false, videoCodec: 'MPEG-2 video', videoResolution: '360x240', noPictureReason: null });
  });

  it('says why there is no picture when ffmpeg is missing, and still sends the KLV', async function () {
    const fixture = fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts');
    process.env.KLVSCOPE_FFMPEG = join(tempDir(), 'no-ffmpeg-here');
    server = await startStreamingServer({ dataDir: tempDir(), port: 0, env: {}, config: { source: pathToFileURL(fixture).href } });
    const viewer = await connectViewer(server.url);
    await viewer.until(() => viewer.messages.some((m) => m.type === 'hello'), 15_000, 'a hello');
    const hello = viewer.messages.find((m): m is StreamHelloMessage => m.type === 'hello') as StreamHelloMessage;
    viewer.close();
    expect(hello.noPictureReason).to.match(/^the source's video is MPEG-2 video, which browsers cannot play, and it cannot be transcoded: .*needs ffmpeg.*apt-get install ffmpeg/);
    const info = (await (await fetch(`${server.url}/info`)).json()) as Record<string, unknown>;
    expect(info.noPictureReason).to.equal(hello.noPictureReason);
    expect(info.videoPassThrough).to.equal(false);
  });

  it('reads a capture device through ffmpeg (lavfi test picture): useCapture in /info, H.264 to the viewers', async function () {
    if (findFfmpeg() === null) {
      console.log('      skipped: no ffmpeg on the PATH (apt-get install ffmpeg)');
      this.skip();
    }
    server = await startStreamingServer({ dataDir: tempDir(), port: 0, env: {}, config: { captureDevice: 'testsrc=size=320x240:rate=25', captureFormat: 'lavfi' } });
    const viewer = await connectViewer(server.url);
    await viewer.until(() => viewer.bytes().length > 50 * 188, 30_000, 'captured bytes');
    viewer.close();
    expect(pmtOf(viewer.bytes())?.streams.map((stream) => stream.streamType)).to.include(0x1b);
    const info = (await (await fetch(`${server.url}/info`)).json()) as Record<string, unknown>;
    expect(info).to.deep.include({ useCapture: true, url: 'capture://testsrc=size=320x240:rate=25', videoResolution: '320x240', noKlv: true });
  });
});
