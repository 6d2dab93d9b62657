import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { rejectionOf } from '../../test-support/thrown.js';
import { AdapterError } from '../src/adapter-error.js';
import { openCaptureSource } from '../src/capture-source.js';
import { FFMPEG_ENV, findFfmpeg } from '../src/find-ffmpeg.js';
import type { LiveChunk } from '../src/live-source.js';
import { demuxStreams } from './demuxed-streams.js';

/** ffmpeg's test picture, as a camera would give it. */
const TEST_PICTURE = { format: 'lavfi', device: 'testsrc=size=320x240:rate=25' };

function ffmpegOrSkip(context: Mocha.Context): void {
  if (findFfmpeg() === null) {
    console.log(`      skipped: no ffmpeg (install it, e.g. apt-get install ffmpeg, or set ${FFMPEG_ENV})`);
    context.skip();
  }
}

describe('capture source', function () {
  this.timeout(30_000);

  it('gives H.264 in whole TS packets from a capture input, a key frame a second', async function () {
    ffmpegOrSkip(this);
    const source = await openCaptureSource({ ...TEST_PICTURE, videoBitrate: 300_000 });
    expect(source.url).to.equal('lavfi:testsrc=size=320x240:rate=25');
    expect(source.format).to.equal('ts');
    const chunks: LiveChunk[] = [];
    const started = Date.now();
    for await (const chunk of source) {
      chunks.push(chunk);
      // About 3.5 s of video (the picture is paced like a camera).
      if (Date.now() - started > 3500) break;
    }
    expect(existsSync(`/proc/${source.pid}`), 'ffmpeg is gone after the loop').to.be.false;
    for (const chunk of chunks) expect(chunk.bytes.length % 188).to.equal(0);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i].receivedAt).to.be.at.least(chunks[i - 1].receivedAt);
    const bytes = Buffer.concat(chunks.map((c) => c.bytes));
    expect(source.stats()).to.include({ chunks: chunks.length, bytes: bytes.length, noiseBytes: 0 });
    const streams = demuxStreams(bytes);
    expect(streams.errors).to.deep.equal([]);
    expect([...streams.streamTypes.values()]).to.deep.equal([0x1b]);
    const [videoPid] = streams.streamTypes.keys();
    const frames = streams.pesPts.get(videoPid) ?? [];
    expect(frames.length).to.be.within(60, 100);
    // Key frames 1 s (90 000 ticks) apart: 25 frames.
    const keys = (streams.randomAccessPts.get(videoPid) ?? []) as number[];
    expect(keys.length).to.be.at.least(3);
    for (let i = 1; i < keys.length; i++) expect(keys[i] - keys[i - 1]).to.equal(90_000);
  });

  it('refuses a device that cannot be opened, in ffmpeg\'s words', async function () {
    ffmpegOrSkip(this);
    const error = await rejectionOf(openCaptureSource({ device: '/dev/klvscope-no-such-camera' }));
    expect(error).to.be.instanceOf(AdapterError);
    expect((error as AdapterError).code).to.equal('ERR_CAPTURE_OPEN_FAILED');
    expect((error as AdapterError).message).to.match(
      /^cannot open capture device \/dev\/klvscope-no-such-camera \(v4l2\): ffmpeg exited with code 1: .*No such file or directory/,
    );
  });

  it('refuses, saying what to install, when ffmpeg is missing', async () => {
    const error = await rejectionOf(openCaptureSource({ ...TEST_PICTURE, ffmpegPath: '/nonexistent/ffmpeg' }));
    expect((error as AdapterError).code).to.equal('ERR_FFMPEG_NOT_FOUND');
    expect((error as AdapterError).message).to.equal('capture of lavfi:testsrc=size=320x240:rate=25: cannot run ffmpeg at /nonexistent/ffmpeg: no such file or directory (ENOENT)');
  });

  it('ends the iteration with ERR_FFMPEG_FAILED when ffmpeg is killed', async function () {
    ffmpegOrSkip(this);
    const source = await openCaptureSource(TEST_PICTURE);
    let chunks = 0;
    const error = await rejectionOf(
      (async () => {
        for await (const chunk of source) {
          expect(chunk.bytes.length).to.be.greaterThan(0);
          if (++chunks === 5) process.kill(source.pid as number, 'SIGKILL');
        }
      })(),
    );
    expect((error as AdapterError).code).to.equal('ERR_FFMPEG_FAILED');
    expect((error as AdapterError).message).to.equal('capture of lavfi:testsrc=size=320x240:rate=25: ffmpeg was killed by SIGKILL (it said nothing)');
    await source.close();
  });

  it('ends the iteration quietly on close', async function () {
    ffmpegOrSkip(this);
    const source = await openCaptureSource(TEST_PICTURE);
    let chunks = 0;
    for await (const _chunk of source) if (++chunks === 3) void source.close();
    expect(chunks).to.be.at.least(3);
    expect(existsSync(`/proc/${source.pid}`)).to.be.false;
  });
});
