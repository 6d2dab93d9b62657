/**
 * Video details per PID (profile, level, size, frame rate, picture types,
 * GOP structure): the real fixtures against the figures ffprobe gives for
 * them (MANIFEST.md, and `ffprobe -show_streams` / `-show_frames` at
 * intake), clips made with ffmpeg against ffprobe run on them here, and
 * random and damaged bytes, which never throw.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ffmpegOrSkip, makeClip, type ClipCodec } from '../../../test-support/ffmpeg-clips.js';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { SeededRandom } from '../../src/gen/seeded-random.js';
import type { ElementaryStream, PesObservation } from '../../src/kernel/observations.js';
import { parseH264Sps } from '../../src/ts/h264-sps.js';
import { parseHevcSps } from '../../src/ts/hevc-sps.js';
import { TsDemuxer } from '../../src/ts/demuxer.js';
import { parseMpeg2SequenceHeader } from '../../src/ts/mpeg2-sequence-header.js';
import { VideoAccessUnitReader } from '../../src/ts/video-access-unit.js';
import { VideoDetailsBuilder, type VideoStreamDetails } from '../../src/ts/video-details.js';

function videoDetailsOf(path: string): VideoStreamDetails[] {
  const builder = new VideoDetailsBuilder();
  const demuxer = new TsDemuxer(() => undefined, { payloadConsumer: builder });
  demuxer.push(new Uint8Array(readFileSync(path)));
  demuxer.end();
  return builder.build();
}

/** The video PES payloads of a file, as the builder is handed them. */
function videoPayloadsOf(path: string): Uint8Array[] {
  const payloads: Uint8Array[] = [];
  const demuxer = new TsDemuxer(() => undefined, {
    payloadConsumer: { wants: (s) => [0x02, 0x1b, 0x24].includes(s.streamType), payload: (_pes, _s, payload) => void payloads.push(payload.slice()) },
  });
  demuxer.push(new Uint8Array(readFileSync(path)));
  demuxer.end();
  return payloads;
}

/** ffprobe's picture type counts (`-show_frames` pict_type) and stream figures of the first video stream. */
function ffprobeFigures(ffprobe: string, path: string): { counts: Record<string, number>; profile: string; level: number; width: number; height: number; rate: number } {
  const frames = execFileSync(ffprobe, ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=pict_type', '-of', 'csv=p=0', path], { encoding: 'utf8' });
  const counts: Record<string, number> = {};
  for (const line of frames.split('\n')) {
    const type = line.replace(/,.*$/, '').trim();
    if (type) counts[type] = (counts[type] ?? 0) + 1;
  }
  const stream = JSON.parse(execFileSync(ffprobe, ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=profile,level,width,height,r_frame_rate', '-of', 'json', path], { encoding: 'utf8' })) as {
    streams: Array<{ profile: string; level: number; width: number; height: number; r_frame_rate: string }>;
  };
  const s = stream.streams[0];
  const [num, den] = s.r_frame_rate.split('/').map(Number);
  return { counts, profile: s.profile, level: s.level, width: s.width, height: s.height, rate: num / den };
}

describe('video details', () => {
  describe('of the real fixtures, as ffprobe gives them', () => {
    it('reads H.264 Constrained Baseline level 3, 640x480 at 30 fps, 28 closed GOPs of 10 (osh-addons)', function () {
      const [video] = videoDetailsOf(fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts'));
      expect(video).to.deep.include({ pid: 0x100, codec: 'H.264', width: 640, height: 480, profile: 'Constrained Baseline', level: '3', chromaFormat: '4:2:0', frameRate: 30, measuredFrameRate: 30, pictures: 277 });
      // ffprobe -show_frames: 28 I, 249 P.
      expect(video.frameTypes).to.deep.equal({ I: 28, P: 249, B: 0 });
      expect(video.gop).to.deep.equal({ count: 28, minLength: 10, maxLength: 10, typicalLength: 10, kind: 'closed', pattern: 'IPPPPPPPPP' });
    });

    it('reads H.264 High 4:4:4 Predictive level 2.1 with 17 B pictures in display order (kwiver, no KLV)', function () {
      const [video] = videoDetailsOf(fixtureOrSkip(this, 'real', 'kwiver_h264_no_klv.ts'));
      expect(video).to.deep.include({ codec: 'H.264', width: 160, height: 120, profile: 'High 4:4:4 Predictive', level: '2.1', chromaFormat: '4:4:4', frameRate: 30, pictures: 30 });
      expect(video.frameTypes).to.deep.equal({ I: 1, P: 12, B: 17 });
      // One group only: no complete one to measure, its pattern in display order.
      expect(video.gop).to.deep.include({ count: 1, minLength: null, typicalLength: null, kind: 'closed' });
      expect(video.gop.pattern).to.have.length(30).and.match(/^IB/);
    });

    it('reads HEVC Rext (monochrome) level 3 through its PPS to 1 I and 29 P pictures (kwiver h265_tricky)', function () {
      const [video] = videoDetailsOf(fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts'));
      // ffprobe: profile Rext, level 90, pix_fmt gray, 30/1.
      expect(video).to.deep.include({ codec: 'HEVC', width: 160, height: 120, profile: 'Format Range Extensions', level: '3', tier: 'Main', chromaFormat: 'monochrome', frameRate: 30, pictures: 30 });
      expect(video.frameTypes).to.deep.equal({ I: 1, P: 29, B: 0 });
    });

    it('reads MPEG-2 Main profile at Main level, 360x240 at 1 fps (kwiver aphill)', function () {
      const [video] = videoDetailsOf(fixtureOrSkip(this, 'real', 'kwiver_aphill_klv_10s.ts'));
      expect(video).to.deep.include({ codec: 'MPEG-2', width: 360, height: 240, profile: 'Main', level: 'Main', chromaFormat: '4:2:0', frameRate: 1, measuredFrameRate: 1, pictures: 10 });
      expect(video.frameTypes).to.deep.equal({ I: 1, P: 9, B: 0 });
      expect(video.gop.pattern).to.equal('IPPPPPPPPP');
    });
  });

  describe('of clips made with ffmpeg, against ffprobe', () => {
    let dir: string;
    before(() => (dir = mkdtempSync(join(tmpdir(), 'klvscope-video-details-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    const cases: Array<{ codec: ClipCodec; bFrames: number; kind: 'closed' | 'open'; pattern: string; level: string }> = [
      // libx264 keeps its GOPs closed (IDR); libx265 (CRA) and mpeg2video open them with leading B pictures.
      { codec: 'h264', bFrames: 2, kind: 'closed', pattern: 'IBBPBBPBBPBP', level: '1.3' },
      { codec: 'hevc', bFrames: 3, kind: 'open', pattern: 'IBBBPBBBPBBB', level: '2' },
      { codec: 'mpeg2', bFrames: 2, kind: 'open', pattern: 'IBBPBBPBBPBB', level: 'Main' },
    ];
    for (const { codec, bFrames, kind, pattern, level } of cases) {
      it(`counts each picture type of ${codec} with ${bFrames} B frames as ffprobe does, in ${kind} GOPs of 12`, function () {
        this.timeout(60_000);
        const ffmpeg = ffmpegOrSkip(this);
        const path = makeClip(ffmpeg, dir, `${codec}-b${bFrames}`, { codec, seconds: 3, size: '320x240', rate: 25, keyFrameSeconds: 12 / 25, bFrames });
        const probe = ffprobeFigures(join(dirname(ffmpeg), 'ffprobe'), path);
        const [video] = videoDetailsOf(path);
        expect(video.frameTypes).to.deep.equal({ I: probe.counts.I ?? 0, P: probe.counts.P ?? 0, B: probe.counts.B ?? 0 });
        expect(video.frameTypes.B).to.be.greaterThan(0);
        expect([video.width, video.height, video.frameRate, video.measuredFrameRate]).to.deep.equal([probe.width, probe.height, probe.rate, probe.rate]);
        expect(video.level).to.equal(level);
        expect(video.gop).to.deep.include({ count: 7, typicalLength: 12, kind, pattern });
      });
    }
  });

  describe('the chroma format of MPEG-2 clips, from the sequence_extension (13818-2 6.2.2.3), against ffprobe', () => {
    let dir: string;
    before(() => (dir = mkdtempSync(join(tmpdir(), 'klvscope-video-chroma-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    // ffmpeg's mpeg2video encodes 4:2:0 and 4:2:2 (its 4:2:2 profile), not 4:4:4; ffprobe names them by pix_fmt.
    for (const [pixelFormat, chromaFormat, profile] of [['yuv420p', '4:2:0', 'Main'], ['yuv422p', '4:2:2', '4:2:2']]) {
      it(`reads ${chromaFormat} from a ${pixelFormat} clip`, function () {
        this.timeout(60_000);
        const ffmpeg = ffmpegOrSkip(this);
        const path = makeClip(ffmpeg, dir, `mpeg2-${pixelFormat}`, { codec: 'mpeg2', pixelFormat, seconds: 1, size: '320x240' });
        const probed = execFileSync(join(dirname(ffmpeg), 'ffprobe'), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=pix_fmt', '-of', 'csv=p=0', path], { encoding: 'utf8' })
          .split('\n')[0]
          .replace(/,$/, '');
        expect(probed).to.equal(pixelFormat);
        const [video] = videoDetailsOf(path);
        // 4:2:2 needs the 4:2:2 profile, an escaped profile_and_level_indication (Table 8-7: 0x85, Main level), as ffprobe names it.
        expect(video).to.deep.include({ codec: 'MPEG-2', width: 320, height: 240, chromaFormat, profile, level: 'Main' });
      });
    }
  });

  describe('on malformed bytes', () => {
    it('never throws on random bytes, with or without a start code in front', () => {
      const random = new SeededRandom(36);
      const readers = (['H.264', 'HEVC', 'MPEG-2'] as const).map((codec) => new VideoAccessUnitReader(codec));
      for (let n = 0; n < 3000; n++) {
        const bytes = Uint8Array.from({ length: Math.floor(random.between(0, 200)) }, () => Math.floor(random.next() * 256));
        const prefixed = Uint8Array.from([0, 0, 1, ...bytes]);
        for (const input of [bytes, prefixed]) {
          expect(() => parseH264Sps(input)).not.to.throw();
          expect(() => parseHevcSps(input)).not.to.throw();
          expect(() => parseMpeg2SequenceHeader(input)).not.to.throw();
          for (const reader of readers) expect(() => reader.read(input)).not.to.throw();
        }
      }
    });

    it('never throws on real access units with flipped bits, cut short or with the wrong codec, and stays plausible', function () {
      const random = new SeededRandom(4609);
      const files = ['osh-addons_sample-stream.ts', 'kwiver_h265_tricky_klv.ts', 'kwiver_aphill_klv_10s.ts'].map((name) => fixtureOrSkip(this, 'real', name));
      const units = files.flatMap((path) => videoPayloadsOf(path).slice(0, 12));
      expect(units.length).to.equal(34);
      const builder = new VideoDetailsBuilder();
      const stream = (pid: number, streamType: number): ElementaryStream => ({ pid, streamType, descriptors: [] }) as unknown as ElementaryStream;
      const pes = (pts: number): PesObservation => ({ pts90kHz: pts }) as unknown as PesObservation;
      for (let round = 0; round < 200; round++) {
        for (const [i, unit] of units.entries()) {
          const damaged = unit.slice(0, Math.max(1, Math.floor(unit.length * random.next())));
          for (let flips = 0; flips < 8; flips++) damaged[Math.floor(random.next() * damaged.length)] ^= 1 << Math.floor(random.next() * 8);
          for (const [pid, streamType] of [[0x100, 0x1b], [0x101, 0x24], [0x102, 0x02]]) {
            expect(() => builder.payload(pes(round * 3600 + i), stream(pid, streamType), damaged, true, () => undefined)).not.to.throw();
          }
        }
      }
      for (const video of builder.build()) {
        expect(video.frameTypes.I + video.frameTypes.P + video.frameTypes.B).to.equal(video.pictures);
        if (video.width !== null) expect(video.width).to.be.within(1, 16_384);
      }
    });
  });
});
