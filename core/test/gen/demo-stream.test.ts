/**
 * The streaming module's demo (issue 22): the repository's H.264 clip in a
 * loop with synchronous ST 0601 KLV, read back by the demuxer and, when
 * installed, decoded by ffmpeg.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDemoStream } from '../../src/gen/demo-stream.js';
import { createGenerator } from '../../src/gen/index.js';
import { FlightPath } from '../../src/gen/klv-flight-path.js';
import { SeededRandom } from '../../src/gen/seeded-random.js';
import { H264ClipSource, splitH264AccessUnits } from '../../src/gen/h264-clip-source.js';
import type { ElementaryStream, Observation, PesObservation } from '../../src/kernel/observations.js';
import { St1402Carriage } from '../../src/klv/st1402-carriage.js';
import type { PesPayloadConsumer } from '../../src/ts/pes-payload-consumer.js';
import { repoRoot } from '../../../test-support/fixtures.js';
import { demux, ofKind } from '../ts/demux-helper.js';
import { concatPackets } from '../ts/packet-builder.js';

const clip = new Uint8Array(readFileSync(join(repoRoot, 'gateway/assets/demo-clip.h264')));
const START_MICROS = Date.UTC(2026, 5, 1) * 1000;
const VIDEO_PID = 0x100;
const KLV_PID = 0x102;
const FRAMES = 750;

/** The KLV layer, plus the video PES payloads kept whole (what a player receives). */
class VideoAndKlv implements PesPayloadConsumer {
  readonly video: Uint8Array[] = [];
  private readonly klv = new St1402Carriage();
  wants(stream: ElementaryStream): boolean {
    return stream.pid === VIDEO_PID || this.klv.wants(stream);
  }
  payload(pes: PesObservation, stream: ElementaryStream, payload: Uint8Array, complete: boolean, emit: (o: Observation) => void): void {
    if (stream.pid === VIDEO_PID) this.video.push(payload);
    else this.klv.payload(pes, stream, payload, complete, emit);
  }
  end(): void {
    this.klv.end?.();
  }
}

describe('the demo H.264 clip source', () => {
  it('splits the clip at its 300 access unit delimiters, an IDR every 30th, the units joined giving the clip', () => {
    const units = splitH264AccessUnits(clip);
    expect(units).to.have.length(300);
    expect(units.flatMap((u, i) => (u.idr ? [i] : []))).to.deep.equal([0, 30, 60, 90, 120, 150, 180, 210, 240, 270]);
    for (const u of units) expect([...u.bytes.subarray(0, 5)]).to.deep.equal([0, 0, 0, 1, 0x09]);
    expect(Buffer.compare(concatPackets(units.map((u) => u.bytes)), clip)).to.equal(0);
  });

  it('gives frame k of every loop the PTS k * 3000 plus the decoder delay', () => {
    const source = new H264ClipSource(clip);
    source.start({ durationSeconds: Infinity, bitrate: 1e6, decoderDelay90kHz: 36_000, videoFrameRate: 30, programNumber: 1, random: new SeededRandom(1) });
    const units = source.nextAccessUnits(20);
    expect(units).to.have.length(601);
    expect(units.map((u) => u.pts90kHz)).to.deep.equal(units.map((_, k) => 36_000 + 3000 * k));
    expect(units[300].payload).to.equal(source.accessUnits[0].bytes);
    expect(units[599].payload).to.equal(source.accessUnits[299].bytes);
    expect(units.filter((u) => u.randomAccess)).to.have.length(21);
    expect(source.nominalBitrate).to.equal((clip.length * 8 * 30) / 300);
    expect(source.unboundedPes).to.equal(false);
  });

  it('refuses a clip without access unit delimiters, or one that does not start with an IDR', () => {
    expect(() => new H264ClipSource(new Uint8Array([0, 0, 1, 0x65, 0x88, 0x84]))).to.throw(/no access unit delimiter/);
    const fromSecondUnit = clip.subarray(splitH264AccessUnits(clip)[1].bytes.byteOffset - clip.byteOffset);
    expect(() => new H264ClipSource(fromSecondUnit)).to.throw(/must start with an IDR/);
    expect(splitH264AccessUnits(new Uint8Array([1, 2, 3]))).to.deep.equal([]);
  });

  it('takes the PID of the video source, and refuses another videoPid', () => {
    const stream = createGenerator({ durationSeconds: 1, bitrate: 1e6, videoSource: new H264ClipSource(clip, { pid: 0x200 }) });
    expect(stream.layout.videoPid).to.equal(0x200);
    expect(stream.layout.pcrPid).to.equal(0x200);
    expect(() => createGenerator({ durationSeconds: 1, bitrate: 1e6, videoPid: 0x300, videoSource: new H264ClipSource(clip, { pid: 0x200 }) })).to.throw(
      /videoPid 0x300 is not videoSource's PID 0x200/,
    );
  });
});

describe('the demo stream', function () {
  this.timeout(60_000);
  let bytes: Uint8Array;
  let chunkSizes: number[];
  let observations: Observation[];
  let video: Uint8Array[];

  before(() => {
    const stream = createDemoStream(clip, { durationSeconds: 25, startTimeMicros: START_MICROS });
    const chunks = [...stream];
    chunkSizes = chunks.map((c) => c.length);
    bytes = concatPackets(chunks);
    const consumer = new VideoAndKlv();
    observations = demux(bytes, 1316, { payloadConsumer: consumer });
    video = consumer.video;
  });

  it('describes itself: bitrates, frames, resolution', () => {
    const stream = createDemoStream(clip, { durationSeconds: 1 });
    expect(stream.layout.bitrate).to.equal(1_500_000);
    expect(stream.videoBitrate).to.equal((clip.length * 8 * 30) / 300);
    expect([stream.frameRate, stream.clipFrames]).to.deep.equal([30, 300]);
    expect(stream.videoResolution).to.deep.equal({ width: 640, height: 360, codec: 'H.264', profile: 'Main' });
  });

  it('is 25 s at 1.5 Mb/s in chunks of 7 whole packets', () => {
    expect(bytes.length).to.equal(Math.ceil((25 * 1_500_000) / (188 * 8)) * 188);
    expect(chunkSizes.slice(0, -1).every((n) => n === 1316)).to.equal(true);
    for (let p = 0; p < bytes.length; p += 188) if (bytes[p] !== 0x47) expect.fail(`no sync byte at ${p}`);
  });

  it('demuxes without any transport or KLV error', () => {
    const problems = observations.filter((o) => o.kind === 'ts-error' || o.kind === 'klv-error');
    expect(problems).to.deep.equal([]);
  });

  it('has a PCR at most every 40 ms and the PAT and PMT at most every 100 ms, all strictly increasing', () => {
    const pcrs = ofKind(observations, 'pcr').map((o) => o.pcr27MHz);
    expect(pcrs.length).to.be.greaterThan(625);
    for (let i = 1; i < pcrs.length; i++) {
      const step = pcrs[i] - pcrs[i - 1];
      if (!(step > 0 && step <= 40 * 27_000)) expect.fail(`PCR step ${step} at ${i}`);
    }
    for (const pid of [0, 0x1000]) {
      const times = ofKind(observations, 'psi-section').filter((o) => o.pid === pid).map((o) => o.offset * 8 / 1_500_000);
      const steps = times.slice(1).map((t, i) => t - times[i]);
      expect(Math.max(...steps), `PID ${pid}`).to.be.at.most(0.1);
      expect(times[times.length - 1]).to.be.greaterThan(24.8);
    }
  });

  it('carries the clip 2.5 times, byte for byte, one PES per frame with PTS 3000 apart across the loop points', () => {
    const pes = ofKind(observations, 'pes').filter((o) => o.pid === VIDEO_PID);
    expect(pes).to.have.length(FRAMES);
    const first = pes[0].pts90kHz as number;
    expect(first).to.equal(3600 * 90_000 + 36_000);
    expect(pes.map((o) => o.pts90kHz)).to.deep.equal(pes.map((_, k) => first + 3000 * k));
    expect(pes.every((o) => o.dts90kHz === null)).to.equal(true);
    expect(pes.flatMap((o, k) => (o.randomAccess ? [k] : []))).to.deep.equal(Array.from({ length: 25 }, (_, i) => 30 * i));
    const units = splitH264AccessUnits(clip);
    expect(video).to.have.length(FRAMES);
    for (let k = 0; k < FRAMES; k++) {
      if (Buffer.compare(video[k], units[k % 300].bytes) !== 0) expect.fail(`frame ${k} differs from access unit ${k % 300}`);
    }
  });

  it('has one valid ST 0601 packet per frame, with the frame PTS and item 2 advancing with it', () => {
    const pts = ofKind(observations, 'pes').filter((o) => o.pid === VIDEO_PID).map((o) => o.pts90kHz as number);
    const packets = ofKind(observations, 'metadata-packet');
    expect(packets).to.have.length(FRAMES);
    expect(packets.every((m) => m.pid === KLV_PID && m.standard === 'MISB ST 0601' && m.version === 17 && m.checksum?.valid === true)).to.equal(true);
    expect(packets.map((m) => m.pts90kHz)).to.deep.equal(pts);
    expect(packets.map((m) => m.timestampMicros)).to.deep.equal(packets.map((_, k) => START_MICROS + Math.round((k * 3000 * 100) / 9)));
    const pmt = ofKind(observations, 'pmt')[0];
    expect(pmt.streams.map((s) => [s.pid, s.streamType])).to.deep.equal([
      [VIDEO_PID, 0x1b],
      [KLV_PID, 0x15],
    ]);
  });

  it('decodes in ffmpeg without an error, the same picture at the start of every loop', function () {
    if (spawnSync('ffmpeg', ['-version']).status !== 0) {
      console.log('      skipped: ffmpeg is not installed');
      this.skip();
    }
    const dir = mkdtempSync(join(tmpdir(), 'klvscope-demo-'));
    try {
      const file = join(dir, 'demo.ts');
      writeFileSync(file, bytes);
      const decoded = spawnSync('ffmpeg', ['-hide_banner', '-v', 'error', '-i', file, '-map', '0:v', '-f', 'framemd5', '-'], { encoding: 'utf8' });
      expect(decoded.status).to.equal(0);
      expect(decoded.stderr).to.equal('');
      const frames = decoded.stdout.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
      expect(frames).to.have.length(FRAMES);
      const md5 = (k: number): string => frames[k].split(',').pop()?.trim() ?? '';
      expect(md5(300)).to.equal(md5(0));
      expect(md5(600)).to.equal(md5(0));
      expect(md5(1)).to.not.equal(md5(0));
      const probed = spawnSync('ffprobe', ['-v', 'error', '-select_streams', 'v', '-show_entries', 'packet=pts', '-of', 'csv=p=0', file], { encoding: 'utf8' });
      const pts = probed.stdout.split('\n').filter((line) => line.trim() !== '').map((line) => parseInt(line, 10));
      expect(pts).to.have.length(FRAMES);
      expect(pts.slice(1).every((p, i) => p - pts[i] === 3000)).to.equal(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the endless demo stream', function () {
  this.timeout(60_000);

  it('goes on past two minutes of stream, in chunks of 7 packets', () => {
    const stream = createDemoStream(clip, { startTimeMicros: START_MICROS });
    expect(stream.layout.durationSeconds).to.equal(Infinity);
    const chunks = 120 * Math.ceil(1_500_000 / 8 / 1316);
    let last: Uint8Array = new Uint8Array(0);
    for (let i = 0; i < chunks; i++) {
      const next = stream.next();
      expect(next.done).to.equal(false);
      last = next.value as Uint8Array;
    }
    expect(last.length).to.equal(1316);
    expect(stream.next().done).to.equal(false);
  });

  it('refuses KLV faults, which are planned over the whole stream', () => {
    expect(() =>
      createGenerator({ durationSeconds: Infinity, bitrate: 1e6, klv: {}, faults: [{ kind: 'klv-checksum', atSeconds: 1 }] }),
    ).to.throw(/needs a stream of finite durationSeconds/);
  });

  it('keeps the orbit after ten hours: the platform on its circle, the values in their ST 0601 ranges', () => {
    const path = new FlightPath(new SeededRandom(7));
    const center = new FlightPath(new SeededRandom(7)).at(0);
    const radius = (s: { sensorLatitudeDeg: number; sensorLongitudeDeg: number }): number => {
      const north = (s.sensorLatitudeDeg - center.frameCenterLatitudeDeg) * 111_320;
      const east = (s.sensorLongitudeDeg - center.frameCenterLongitudeDeg) * 111_320 * Math.cos((center.frameCenterLatitudeDeg * Math.PI) / 180);
      return Math.hypot(north, east);
    };
    const early = radius(path.at(1));
    const late = path.at(10 * 3600 + 0.5);
    expect(Math.abs(radius(late) - early)).to.be.below(70);
    expect(late.platformHeadingDeg).to.be.within(0, 360);
    expect(late.sensorRelativeAzimuthDeg).to.be.within(0, 360);
    expect(late.sensorRelativeElevationDeg).to.be.within(-90, 0);
    expect(late.horizontalFovDeg).to.be.within(4, 8);
    expect(late.slantRangeM).to.be.within(1500, 4000);
  });
});
