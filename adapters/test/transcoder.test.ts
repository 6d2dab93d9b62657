import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fixtureOrSkip } from '../../test-support/fixtures.js';
import { thrownBy } from '../../test-support/thrown.js';
import { AdapterError } from '../src/adapter-error.js';
import { FFMPEG_ENV, findFfmpeg } from '../src/find-ffmpeg.js';
import { Transcoder, type TranscoderOptions } from '../src/transcoder.js';
import { demuxStreams } from './demuxed-streams.js';

const H264 = 0x1b;

/** Skips the test, saying why, when this machine has no ffmpeg. */
function ffmpegOrSkip(context: Mocha.Context): string {
  const ffmpeg = findFfmpeg();
  if (ffmpeg === null) {
    console.log(`      skipped: no ffmpeg (install it, e.g. apt-get install ffmpeg, or set ${FFMPEG_ENV})`);
    context.skip();
  }
  return ffmpeg;
}

/** Sends the file through a transcoder in datagram-sized chunks, as the streaming module would, and returns the TS out. */
async function transcode(bytes: Uint8Array, options: TranscoderOptions = {}): Promise<{ out: Uint8Array; transcoder: Transcoder; errors: AdapterError[] }> {
  const transcoder = new Transcoder(options);
  const parts: Uint8Array[] = [];
  const errors: AdapterError[] = [];
  transcoder.onData = (chunk) => parts.push(chunk);
  transcoder.onError = (error) => errors.push(error);
  for (let at = 0; at < bytes.length; at += 1316) transcoder.write(bytes.subarray(at, at + 1316));
  await transcoder.close();
  return { out: Buffer.concat(parts), transcoder, errors };
}

describe('transcoder', function () {
  this.timeout(60_000);

  describe('findFfmpeg', () => {
    let empty: string;
    before(async () => {
      empty = await mkdtemp(join(tmpdir(), 'klvscope-no-ffmpeg-'));
    });
    after(async () => {
      await rm(empty, { recursive: true, force: true });
    });

    it('finds nothing on a PATH without ffmpeg', () => {
      expect(findFfmpeg({ PATH: empty })).to.equal(null);
    });

    it(`takes ${FFMPEG_ENV} when set, and does not replace a wrong one by the PATH's`, function () {
      const ffmpeg = ffmpegOrSkip(this);
      expect(findFfmpeg({ PATH: empty, [FFMPEG_ENV]: ffmpeg })).to.equal(ffmpeg);
      expect(findFfmpeg({ PATH: process.env.PATH, [FFMPEG_ENV]: join(empty, 'ffmpeg') })).to.equal(null);
    });

    it('refuses to start without ffmpeg, saying what to install', () => {
      const saved = process.env[FFMPEG_ENV];
      process.env[FFMPEG_ENV] = join(empty, 'ffmpeg');
      try {
        const error = thrownBy(() => new Transcoder());
        expect(error).to.be.instanceOf(AdapterError);
        expect((error as AdapterError).code).to.equal('ERR_FFMPEG_NOT_FOUND');
        expect((error as AdapterError).message).to.equal(
          `Transcoding video for the browser needs ffmpeg with libx264, and there is ${FFMPEG_ENV}=${join(empty, 'ffmpeg')} is not an executable file: install it (Debian/Ubuntu: apt-get install ffmpeg) or set ${FFMPEG_ENV} to its path`,
        );
      } finally {
        if (saved === undefined) delete process.env[FFMPEG_ENV];
        else process.env[FFMPEG_ENV] = saved;
      }
    });

    it('reports an ffmpeg path that cannot be run as ERR_FFMPEG_NOT_FOUND', async () => {
      const transcoder = new Transcoder({ ffmpegPath: join(empty, 'no-ffmpeg-here') });
      const error = await new Promise<AdapterError>((resolve) => (transcoder.onError = resolve));
      expect(error.code).to.equal('ERR_FFMPEG_NOT_FOUND');
      expect(error.message).to.equal(`transcoder: cannot run ffmpeg at ${join(empty, 'no-ffmpeg-here')}: no such file or directory (ENOENT)`);
      expect(() => transcoder.write(new Uint8Array(188))).not.to.throw();
      await transcoder.close();
    });
  });

  describe('with ffmpeg', () => {
    it('turns MPEG-2 video into H.264 and keeps every KLV packet with its PTS, in step with the video', async function () {
      ffmpegOrSkip(this);
      const input = readFileSync(fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts'));
      const { out, transcoder, errors } = await transcode(input, { videoBitrate: 500_000 });
      expect(errors).to.deep.equal([]);
      expect(out.length % 188).to.equal(0);
      const before = demuxStreams(input);
      const after = demuxStreams(out);
      expect(before.streamTypes.get(0x100)).to.equal(0x02);
      expect(after.streamTypes.get(0x100)).to.equal(H264);
      // The KLV stream: asynchronous, registration 'KLVA', every packet byte for byte with the same PTS.
      expect(after.streamTypes.get(0x101)).to.equal(0x06);
      expect(after.klv.get(0x101)).to.have.length(300);
      expect(after.klv.get(0x101)).to.deep.equal(before.klv.get(0x101));
      // The video frames keep their PTS (1 frame/s: ffmpeg rounded them to the second without a 90 kHz time base).
      expect(after.pesPts.get(0x100)).to.deep.equal(before.pesPts.get(0x100));
      expect(after.errors).to.deep.equal([]);
      expect(transcoder.stats()).to.include({ bytesIn: input.length, bytesOut: out.length, droppedChunks: 0 });
    });

    it('turns H.265 into H.264, and keeps the synchronous and the time-less KLV streams', async function () {
      ffmpegOrSkip(this);
      const input = readFileSync(fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts'));
      const { out, errors } = await transcode(input, { size: { width: 320, height: 240 } });
      expect(errors).to.deep.equal([]);
      const before = demuxStreams(input);
      const after = demuxStreams(out);
      expect(before.streamTypes.get(0x100)).to.equal(0x24);
      expect(after.streamTypes.get(0x100)).to.equal(H264);
      // ST 1402 synchronous carriage (0x15) comes out asynchronous (0x06 'KLVA'), with the same PTS.
      expect(before.streamTypes.get(0x101)).to.equal(0x15);
      expect(after.streamTypes.get(0x101)).to.equal(0x06);
      expect(after.klv.get(0x101)).to.have.length(30);
      expect(after.klv.get(0x101)).to.deep.equal(before.klv.get(0x101));
      expect(after.klv.get(0x102)).to.have.length(60);
      expect(after.klv.get(0x102)?.every((k) => k.pts90kHz === null)).to.be.true;
      expect(after.klv.get(0x102)).to.deep.equal(before.klv.get(0x102));
      // Each KLV packet of 0x101 has the PTS of a video frame: the frame it describes.
      const videoPts = after.pesPts.get(0x100);
      expect(videoPts).to.have.length(30);
      for (const [i, k] of (after.klv.get(0x101) ?? []).entries()) expect(Math.abs((k.pts90kHz ?? NaN) - (videoPts?.[i] ?? NaN))).to.be.at.most(1);
      expect(after.randomAccessPts.get(0x100)?.[0]).to.equal(videoPts?.[0]);
    });

    it('reports ffmpeg killed mid-stream as ERR_FFMPEG_FAILED, and write goes on not throwing', async function () {
      ffmpegOrSkip(this);
      const input = readFileSync(fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts'));
      const transcoder = new Transcoder();
      const failed = new Promise<AdapterError>((resolve) => (transcoder.onError = resolve));
      transcoder.write(input.subarray(0, 188 * 500));
      await sleep(200);
      process.kill(transcoder.pid as number, 'SIGKILL');
      const error = await failed;
      expect(error.code).to.equal('ERR_FFMPEG_FAILED');
      expect(error.message).to.match(/^transcoder: ffmpeg was killed by SIGKILL/);
      expect(() => transcoder.write(input.subarray(188 * 500))).not.to.throw();
      await transcoder.close();
    });

    it('reports what ffmpeg said when it refuses the job, with its last stderr lines', async function () {
      ffmpegOrSkip(this);
      const input = readFileSync(fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts'));
      // libx264 takes 4:2:0 pictures of even sizes only.
      const { out, errors } = await transcode(input, { size: { width: 321, height: 241 } });
      expect(out.length).to.equal(0);
      expect(errors).to.have.length(1);
      expect(errors[0].code).to.equal('ERR_FFMPEG_FAILED');
      expect(errors[0].message).to.match(/^transcoder: ffmpeg exited with code 1: \[libx264 @ 0x[0-9a-f]+\] width not divisible by 2 \(321x241\) \| Error initializing output stream/);
      expect(errors[0].details).to.include({ exitCode: 1, signal: null });
    });

    it('drops input, counts it and says so, rather than queue more than the bound', async function () {
      ffmpegOrSkip(this);
      const input = readFileSync(fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts'));
      const transcoder = new Transcoder({ maxQueuedBytes: 64 * 1024 });
      const drops: Array<{ chunks: number; bytes: number; message: string }> = [];
      transcoder.onDrop = (drop) => drops.push(drop);
      // All in one turn of the event loop: the pipe cannot take it.
      for (let at = 0; at < input.length; at += 1316) transcoder.write(input.subarray(at, at + 1316));
      const stats = transcoder.stats();
      expect(stats.droppedBytes).to.be.greaterThan(0);
      // What ffmpeg has not taken: the bound in our queue, plus what the pipe (64 KiB) and ffmpeg's reads took.
      expect(stats.bytesIn).to.be.at.most(64 * 1024 + 256 * 1024);
      expect(stats.bytesIn + stats.droppedBytes).to.equal(input.length);
      await transcoder.close();
      expect(drops.reduce((n, d) => n + d.bytes, 0)).to.equal(stats.droppedBytes);
      expect(drops[0].message).to.match(/^\d+ chunk\(s\) \(\d+ bytes\) not transcoded: ffmpeg fell behind by more than 65536 bytes$/);
    });
  });
});
