/**
 * Video resolution from the parameter sets: the real fixtures and the demo
 * clip with exact values, hand-built parameter sets for the paths they do
 * not take (cropping of interlaced 4:2:0, emulation prevention, HEVC
 * sub-layers and conformance window, MPEG-2 size extension), and random and
 * truncated bytes, which never throw.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureOrSkip, repoRoot } from '../../../test-support/fixtures.js';
import { createDemoStream } from '../../src/gen/demo-stream.js';
import { SeededRandom } from '../../src/gen/seeded-random.js';
import { annexBNalUnits, nalUnitRbsp } from '../../src/ts/annex-b-nal-units.js';
import { parseH264Sps } from '../../src/ts/h264-sps.js';
import { VideoResolutionProbe } from '../../src/ts/video-resolution-probe.js';
import { videoResolutionOf, type VideoResolution } from '../../src/ts/video-resolution.js';

const clip = new Uint8Array(readFileSync(join(repoRoot, 'gateway/assets/demo-clip.h264')));

/** Writes u(n), ue(v) and se(v) (ITU-T H.264 9.1) and the RBSP trailing bits. */
class BitWriter {
  private readonly bits: number[] = [];
  u(n: number, value: number): this {
    for (let i = n - 1; i >= 0; i--) this.bits.push(Math.floor(value / 2 ** i) % 2);
    return this;
  }
  ue(value: number): this {
    const code = value + 1;
    const length = Math.floor(Math.log2(code));
    return this.u(length, 0).u(length + 1, code);
  }
  se(value: number): this {
    return this.ue(value > 0 ? 2 * value - 1 : -2 * value);
  }
  /** rbsp_trailing_bits (7.3.2.11): a 1, then zeros to the byte boundary. */
  rbsp(): Uint8Array {
    const bits = [...this.bits, 1];
    while (bits.length % 8 !== 0) bits.push(0);
    return Uint8Array.from({ length: bits.length / 8 }, (_, i) => bits.slice(8 * i, 8 * i + 8).reduce((v, b) => v * 2 + b, 0));
  }
}

/** 7.4.1: a 03 after every 00 00 that a byte <= 03 follows. */
function preventEmulation(rbsp: Uint8Array): Uint8Array {
  const out: number[] = [];
  let zeros = 0;
  for (const b of rbsp) {
    if (zeros >= 2 && b <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(b);
    zeros = b === 0 ? zeros + 1 : 0;
  }
  return Uint8Array.from(out);
}

/** An Annex B access unit: an AUD then the NAL unit of `header` and `rbsp`. */
function annexB(header: number[], rbsp: Uint8Array): Uint8Array {
  return Uint8Array.from([0, 0, 0, 1, 0x09, 0xf0, 0, 0, 0, 1, ...header, ...preventEmulation(rbsp), 0, 0, 1, 0x65, 0x88]);
}

describe('video resolution from parameter sets', () => {
  describe('the real fixtures, through the probe fed 1316-byte chunks', () => {
    const cases: Array<[string, VideoResolution]> = [
      ['kwiver_h264_klv.ts', { width: 160, height: 120, codec: 'H.264', profile: 'High 4:4:4 Predictive' }],
      ['osh-addons_sample-stream.ts', { width: 640, height: 480, codec: 'H.264', profile: 'Constrained Baseline' }],
      ['kwiver_aphill_klv_10s.ts', { width: 360, height: 240, codec: 'MPEG-2', profile: 'Main' }],
      ['kwiver_h265_tricky_klv.ts', { width: 160, height: 120, codec: 'HEVC', profile: 'Format Range Extensions' }],
    ];
    for (const [file, expected] of cases) {
      it(`reads ${file} as ${expected.width}x${expected.height} ${expected.codec}`, function () {
        const bytes = readFileSync(fixtureOrSkip(this, 'real', file));
        const probe = new VideoResolutionProbe();
        let found: VideoResolution | null = null;
        let read = 0;
        for (; read < bytes.length && !found; read += 1316) found = probe.push(bytes.subarray(read, read + 1316));
        expect(found).to.deep.equal(expected);
        expect(probe.pid).to.equal(0x100);
        // Found in the first PES: read as soon as the second video PES starts.
        expect(read).to.be.below(20_000);
      });
    }
  });

  it('reads the demo clip as 640x360 H.264 Main, its 368 coded lines cropped by 8 (7.4.2.1.1)', () => {
    expect(videoResolutionOf(clip, 0x1b)).to.deep.equal({ width: 640, height: 360, codec: 'H.264', profile: 'Main' });
    const sps = annexBNalUnits(clip).find((n) => (clip[n.start] & 0x1f) === 7);
    expect(sps).to.not.equal(undefined);
  });

  it('reads the demo stream through the probe once its first frame is in, or from the part of it held at the end', () => {
    const demo = { width: 640, height: 360, codec: 'H.264', profile: 'Main' };
    const chunks = [...createDemoStream(clip, { durationSeconds: 1, startTimeMicros: 0 })];
    const probe = new VideoResolutionProbe();
    const n = chunks.findIndex((chunk) => probe.push(chunk) !== null);
    expect(probe.resolution).to.deep.equal(demo);
    expect(probe.pid).to.equal(0x100);
    expect(n).to.be.greaterThan(1);
    const cut = new VideoResolutionProbe();
    for (const chunk of chunks.slice(0, n)) expect(cut.push(chunk)).to.equal(null);
    expect(cut.end()).to.deep.equal(demo);
  });

  it('crops an interlaced 4:2:2 High 4:2:2 SPS with scaling lists and a POC cycle, across emulation prevention bytes', () => {
    // 1920x1080 interlaced: 120 x 34 map units of 32 lines = 1088; a 4:2:2 field-coded crop unit is 1 * 2 lines (Table 6-1, 7.4.2.1.1).
    const w = new BitWriter().u(8, 122).u(8, 0).u(8, 40).ue(0);
    w.ue(2).ue(2).ue(2).u(1, 0); // chroma_format_idc 4:2:2, bit depths 10, no bypass
    w.u(1, 1); // seq_scaling_matrix_present_flag
    w.u(1, 1); // list 0 present: 16 deltas, the last making nextScale 0
    for (let j = 0; j < 15; j++) w.se(1);
    w.se(-23);
    for (let i = 1; i < 8; i++) w.u(1, 0);
    w.ue(0).ue(1).u(1, 0).se(2 ** 29).se(-5).ue(2).se(32_768).se(-1); // POC type 1: 30 zero bits in a row
    w.ue(4).u(1, 0).ue(119).ue(33).u(1, 0).u(1, 0).u(1, 1); // refs, 120 x 34, field coding, direct 8x8
    w.u(1, 1).ue(0).ue(0).ue(0).ue(4); // crop bottom 4 units of 2 lines
    const rbsp = w.rbsp();
    const nal = preventEmulation(rbsp);
    expect(nal.length).to.be.greaterThan(rbsp.length);
    expect(parseH264Sps(rbsp)).to.deep.equal({ width: 1920, height: 1080, profileIdc: 122, levelIdc: 40, level: '4', frameRate: null, fieldCoding: true, chromaFormatIdc: 2, profile: 'High 4:2:2' });
    expect(videoResolutionOf(annexB([0x67], rbsp), 0x1b)).to.deep.equal({ width: 1920, height: 1080, codec: 'H.264', profile: 'High 4:2:2' });
  });

  it('reads an HEVC SPS with two sub-layers and a conformance window', () => {
    const w = new BitWriter().u(4, 0).u(3, 2).u(1, 1);
    w.u(2, 0).u(1, 0).u(5, 2).u(32, 0x20000000).u(4, 0b1001).u(43, 0).u(1, 0).u(8, 123); // general: Main 10, level 4.1
    w.u(1, 1).u(1, 0).u(1, 0).u(1, 1); // sub-layer 0 profile present, sub-layer 1 level present
    for (let i = 2; i < 8; i++) w.u(2, 0);
    w.u(32, 0xffffffff).u(32, 0xffffffff).u(24, 0xffffff).u(8, 0xff); // 88 + 8 bits that must be skipped
    w.ue(0).ue(1).ue(1920).ue(1088).u(1, 1).ue(0).ue(0).ue(0).ue(4); // 4:2:0, 1920x1088, window bottom 4 chroma lines
    expect(videoResolutionOf(annexB([0x42, 0x01], w.rbsp()), 0x24)).to.deep.equal({ width: 1920, height: 1080, codec: 'HEVC', profile: 'Main 10' });
  });

  it('reads the MPEG-2 size extension bits and leaves the profile out without a sequence extension', () => {
    // 6.2.2.1: 0x500 x 0x2D0 (1280x720), aspect 3, frame rate 5, bit rate, marker, VBV; 6.2.2.3: Main@High, extension bits 1 and 0.
    const header = [0, 0, 1, 0xb3, 0x50, 0x02, 0xd0, 0x35, 0xff, 0xff, 0xe0, 0x18, 0x00, 0, 0, 1, 0xb5];
    const extension = [0x14, 0x4a, 0x80, 0x01, 0x00, 0x00, 0, 0, 1, 0x00];
    expect(videoResolutionOf(Uint8Array.from([...header, ...extension]), 0x02)).to.deep.equal({ width: 1280 + 4096, height: 720, codec: 'MPEG-2', profile: 'Main' });
    expect(videoResolutionOf(Uint8Array.from([...header.slice(0, 13), 0, 0, 1, 0x00, 0, 0]), 0x02)).to.deep.equal({ width: 1280, height: 720, codec: 'MPEG-2' });
    const noMarker = Uint8Array.from(header.map((b, i) => (i === 10 ? 0xc0 : b)));
    expect(videoResolutionOf(noMarker, 0x02)).to.equal(null);
  });

  it('gives null for other stream types and for bytes without a parameter set', () => {
    expect(videoResolutionOf(clip, 0x15)).to.equal(null);
    expect(videoResolutionOf(clip.subarray(0, 6), 0x1b)).to.equal(null);
    expect(videoResolutionOf(new Uint8Array(0), 0x24)).to.equal(null);
  });

  it('never throws on truncated parameter sets: each cut gives null or the whole answer', () => {
    const spsNal = annexBNalUnits(clip).find((n) => (clip[n.start] & 0x1f) === 7);
    if (!spsNal) throw new Error('no SPS in the clip');
    const full = { width: 640, height: 360, codec: 'H.264', profile: 'Main' };
    let shortestFull = Infinity;
    for (let end = spsNal.start; end <= spsNal.end; end++) {
      const cut = videoResolutionOf(Uint8Array.from([0, 0, 1, ...clip.subarray(spsNal.start, end)]), 0x1b);
      if (cut !== null) {
        expect(cut).to.deep.equal(full);
        shortestFull = Math.min(shortestFull, end - spsNal.start);
      }
    }
    // The 1 header byte, 3 fixed bytes and the ue fields up to the crop offsets.
    expect(shortestFull).to.be.within(8, spsNal.end - spsNal.start);
    // x264's SPS holds two emulation prevention bytes (00 00 03), which the RBSP leaves out.
    expect(nalUnitRbsp(clip, spsNal.start, spsNal.end, 1).length).to.equal(spsNal.end - spsNal.start - 1 - 2);
  });

  it('never throws on random bytes, and what it finds in them is a plausible size', function () {
    this.timeout(20_000);
    const random = new SeededRandom(22);
    const starts = [[0x67], [0x42, 0x01], [0xb3], [0x27], [0x40, 0x01]];
    let found = 0;
    for (let n = 0; n < 3000; n++) {
      const bytes = Uint8Array.from({ length: Math.floor(random.between(0, 120)) }, () => Math.floor(random.between(0, 256)));
      // Start codes and parameter set headers now and then, so the parsers run deep.
      for (let at = 0; at + 6 < bytes.length; at += 1 + Math.floor(random.between(0, 40))) {
        bytes.set([0, 0, 1, ...starts[Math.floor(random.between(0, starts.length))]], at);
      }
      for (const streamType of [0x1b, 0x24, 0x02]) {
        const r = videoResolutionOf(bytes, streamType);
        if (r) {
          found++;
          expect(r.width).to.be.within(1, 16_384);
          expect(r.height).to.be.within(1, 16_384);
        }
      }
      const probe = new VideoResolutionProbe();
      probe.push(bytes);
      probe.end();
    }
    expect(found).to.be.greaterThan(0);
  });
});
