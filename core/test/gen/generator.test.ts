import { expect } from 'chai';
import { createGenerator, generateTransportStream } from '../../src/gen/generator.js';
import type { GeneratorOptions } from '../../src/gen/generator-options.js';
import { DEFAULT_INITIAL_PCR_27MHZ } from '../../src/gen/generator-options.js';
import { GeneratorError } from '../../src/gen/generator-error.js';
import { packetBytes, readPackets, readPes, readSections } from './ts-reader.js';

const PCR_MODULUS = 2n ** 33n * 300n;
const BASE: GeneratorOptions = { durationSeconds: 3, bitrate: 3_000_000, audio: true };

/** ISO 13818-1 2.4.2.2 for a CBR stream, in exact integer arithmetic: the PCR packet `index` must carry. */
function expectedPcr(index: number, bitrate: number, initialPcr27MHz = DEFAULT_INITIAL_PCR_27MHZ): number {
  const numerator = (BigInt(index) * 188n + 10n) * 8n * 27_000_000n;
  const b = BigInt(bitrate);
  const rounded = (2n * numerator + b) / (2n * b);
  return Number((BigInt(initialPcr27MHz) + rounded) % PCR_MODULUS);
}

function generatorError(options: GeneratorOptions): GeneratorError {
  try {
    createGenerator(options);
  } catch (error) {
    if (error instanceof GeneratorError) return error;
    throw error;
  }
  throw new Error('options were accepted');
}

describe('transport stream generator', () => {
  const { bytes, layout } = generateTransportStream(BASE);
  const packets = readPackets(bytes, 188);
  const secondsPerPacket = 1504 / BASE.bitrate;

  it('writes duration x bitrate worth of whole packets', () => {
    expect(packets).to.have.length(Math.ceil((3 * 3_000_000) / 1504));
    expect(bytes.length).to.equal(packets.length * 188);
  });

  for (const size of [188, 192, 204] as const) {
    it(`puts a sync byte at the start of every ${size}-byte packet`, () => {
      const stream = generateTransportStream({ ...BASE, durationSeconds: 1, packetSize: size }).bytes;
      const prefix = size === 192 ? 4 : 0;
      expect(stream.length % size).to.equal(0);
      for (let p = 0; p < stream.length; p += size) expect(stream[p + prefix], `byte ${p + prefix}`).to.equal(0x47);
      // The same packets whatever the framing.
      const plain = generateTransportStream({ ...BASE, durationSeconds: 1 }).bytes;
      expect(Buffer.compare(packetBytes(stream, size, 100), packetBytes(plain, 188, 100))).to.equal(0);
    });
  }

  it('gives each 192-byte packet the 27 MHz arrival time of its first byte modulo 2^30', () => {
    const stream = generateTransportStream({ ...BASE, durationSeconds: 1, packetSize: 192 }).bytes;
    for (const index of [0, 1, 1000, 1990]) {
      const p = index * 192;
      const ats = ((stream[p] & 0x3f) << 24) + (stream[p + 1] << 16) + (stream[p + 2] << 8) + stream[p + 3];
      expect(ats).to.equal((DEFAULT_INITIAL_PCR_27MHZ + index * 188 * 72) % 2 ** 30);
    }
  });

  it('ends each 204-byte packet with 16 zero parity bytes', () => {
    const stream = generateTransportStream({ ...BASE, durationSeconds: 1, packetSize: 204 }).bytes;
    for (let p = 0; p < stream.length; p += 204) expect(stream.subarray(p + 188, p + 204).every((b) => b === 0)).to.be.true;
  });

  it('keeps the continuity counter of every PID continuous (unchanged across adaptation-only packets)', () => {
    const last = new Map<number, number>();
    for (const p of packets) {
      if (p.pid === 0x1fff) continue;
      const before = last.get(p.pid);
      if (before !== undefined) expect(p.cc, `packet ${p.index} PID ${p.pid}`).to.equal(p.afc & 1 ? (before + 1) & 15 : before);
      last.set(p.pid, p.cc);
    }
    expect([...last.keys()].sort((a, b) => a - b)).to.deep.equal([0, 0x100, 0x101, 0x1000]);
  });

  it('starts with the PAT and the PMT, then the first PCR on the first I-frame', () => {
    expect(packets.slice(0, 3).map((p) => p.pid)).to.deep.equal([0, 0x1000, 0x100]);
    expect([packets[2].pusi, packets[2].randomAccess, packets[2].pcr27MHz]).to.deep.equal([true, true, expectedPcr(2, BASE.bitrate)]);
  });

  it('puts PCRs on the video PID only, at most 40 ms apart, each exact to the CBR rule', () => {
    const withPcr = packets.filter((p) => p.pcr27MHz !== null);
    expect(new Set(withPcr.map((p) => p.pid))).to.deep.equal(new Set([0x100]));
    for (const p of withPcr) expect(p.pcr27MHz, `packet ${p.index}`).to.equal(expectedPcr(p.index, BASE.bitrate));
    const gaps = withPcr.slice(1).map((p, i) => (p.index - withPcr[i].index) * secondsPerPacket);
    expect(Math.max(...gaps)).to.be.at.most(0.04);
    expect(Math.min(...gaps)).to.be.above(0.039);
  });

  it('keeps PCRs exact when the ticks per byte are not whole (5 Mbit/s: 43.2)', () => {
    const stream = generateTransportStream({ ...BASE, bitrate: 5_000_000, durationSeconds: 1 }).bytes;
    const withPcr = readPackets(stream, 188).filter((p) => p.pcr27MHz !== null);
    expect(withPcr.length).to.be.above(20);
    for (const p of withPcr) expect(p.pcr27MHz).to.equal(expectedPcr(p.index, 5_000_000));
  });

  it('sends valid PAT and PMT sections at most 100 ms apart', () => {
    for (const pid of [0, 0x1000]) {
      const sections = readSections(bytes, packets, pid);
      expect(sections.every((s) => s.crcValid)).to.be.true;
      const gaps = sections.slice(1).map((s, i) => (s.packetIndex - sections[i].packetIndex) * secondsPerPacket);
      expect(Math.max(...gaps)).to.be.at.most(0.1);
      expect(Math.min(...gaps)).to.be.above(0.09);
      expect(sections.length).to.equal(31);
    }
  });

  it('maps program 1 to the PMT, and the PMT lists video (0x1B) with the PCR and audio (0x0F)', () => {
    const pat = readSections(bytes, packets, 0)[0].section;
    expect(Buffer.from(pat).toString('hex')).to.equal('00b00d0001c100000001f0002ab104b2');
    const pmt = readSections(bytes, packets, 0x1000)[0].section;
    expect(Buffer.from(pmt.subarray(0, pmt.length - 4)).toString('hex')).to.equal('02b0170001c10000e100f0001be100f0000fe101f000');
  });

  it('gives I- and P-frames PTS and DTS, B-frames PTS alone, one frame (3000 ticks) apart, PES_packet_length 0', () => {
    const pes = readPes(bytes, packets, 0x100);
    expect(pes.length).to.be.within(89, 90);
    expect(pes.every((p) => p.markersValid && p.streamId === 0xe0 && p.pesPacketLength === 0)).to.be.true;
    const stc0 = DEFAULT_INITIAL_PCR_27MHZ / 300;
    const delay = 36_000; // 400 ms
    const firstTen = pes.slice(0, 10).map((p) => [(p.pts as number) - stc0 - delay, p.dts === null ? null : p.dts - stc0 - delay]);
    // Decode order I0 P3 B1 B2 P6 B4 B5 P9 B7 B8, presented one frame late.
    expect(firstTen).to.deep.equal([
      [3000, 0], [12000, 3000], [6000, null], [9000, null], [21000, 12000],
      [15000, null], [18000, null], [30000, 21000], [24000, null], [27000, null],
    ]);
    const randomAccess = pes.filter((p) => p.randomAccess).map((p) => (p.dts ?? (p.pts as number)) - stc0 - delay);
    // I-frames are displayed every 30 frames and decoded two frames early (before the B-frames shown ahead of them).
    expect(randomAccess).to.deep.equal([0, 28 * 3000, 58 * 3000, 88 * 3000]);
  });

  it('makes I-frames the largest frames of a GOP', () => {
    const pes = readPes(bytes, packets, 0x100).slice(0, 29);
    const largest = Math.max(...pes.map((p) => p.payloadBytes));
    expect(pes[0].payloadBytes).to.equal(largest);
    expect(largest).to.be.above(3 * (pes.reduce((s, p) => s + p.payloadBytes, 0) / pes.length));
  });

  it('sends one audio PES per 1920-tick AAC frame (341.33 bytes at 128 kbit/s) with PTS and its exact PES_packet_length', () => {
    const pes = readPes(bytes, packets, 0x101);
    expect(pes.length).to.be.within(138, 141);
    pes.slice(1).forEach((p, i) => expect((p.pts as number) - (pes[i].pts as number)).to.equal(1920));
    expect(pes.every((p) => p.dts === null && p.ptsDtsFlags === 2 && p.pesPacketLength === 3 + 5 + p.payloadBytes)).to.be.true;
    expect(pes.every((p) => p.payloadBytes === 341 || p.payloadBytes === 342)).to.be.true;
  });

  it('decodes every unit at most 400 ms after its PES starts, and never before', () => {
    for (const pid of [0x100, 0x101]) {
      for (const p of readPes(bytes, packets, pid)) {
        const pcr90kHz = expectedPcr(p.packetIndex, BASE.bitrate) / 300;
        const delay = (p.dts ?? p.pts ?? Number.NaN) - pcr90kHz;
        expect(delay, `PES at packet ${p.packetIndex}`).to.be.within(0, 36_000);
      }
    }
  });

  it('writes PTS alone on every video PES without B-frames, and no timestamps when told', () => {
    const ipOnly = generateTransportStream({ ...BASE, bFrames: 0, durationSeconds: 1 }).bytes;
    const pes = readPes(ipOnly, readPackets(ipOnly, 188), 0x100);
    expect(pes.every((p) => p.ptsDtsFlags === 2)).to.be.true;
    pes.slice(1).forEach((p, i) => expect((p.pts as number) - (pes[i].pts as number)).to.equal(3000));
    const bare = generateTransportStream({ ...BASE, videoPts: false, durationSeconds: 1 }).bytes;
    expect(readPes(bare, readPackets(bare, 188), 0x100).every((p) => p.ptsDtsFlags === 0 && p.headerDataLength === 0)).to.be.true;
  });

  it('wraps PCR and PTS at 2^33 when started just before the wrap, the PCR still exact', () => {
    const initialPcr27MHz = (2 ** 33 - 90_000) * 300; // one second before the wrap
    const stream = generateTransportStream({ ...BASE, initialPcr27MHz }).bytes;
    const read = readPackets(stream, 188);
    const withPcr = read.filter((p) => p.pcr27MHz !== null);
    for (const p of withPcr) expect(p.pcr27MHz).to.equal(expectedPcr(p.index, BASE.bitrate, initialPcr27MHz));
    const pcrDrops = withPcr.slice(1).filter((p, i) => (p.pcr27MHz as number) < (withPcr[i].pcr27MHz as number));
    expect(pcrDrops).to.have.length(1);
    expect(pcrDrops[0].index * secondsPerPacket).to.be.closeTo(1, 0.05);
    const audio = readPes(stream, read, 0x101);
    const ptsDrops = audio.slice(1).filter((p, i) => (p.pts as number) < (audio[i].pts as number));
    expect(ptsDrops).to.have.length(1);
    // The audio PTS (400 ms ahead of the PCR) wraps about 0.6 s in.
    expect(ptsDrops[0].pts).to.be.below(1920);
    audio.slice(1).forEach((p, i) => expect(((p.pts as number) - (audio[i].pts as number) + 2 ** 33) % 2 ** 33).to.equal(1920));
  });

  it('is deterministic: the same seed gives the same bytes, another seed other frame sizes', () => {
    const again = generateTransportStream(BASE).bytes;
    expect(Buffer.compare(again, bytes)).to.equal(0);
    const other = generateTransportStream({ ...BASE, seed: 2 }).bytes;
    expect(Buffer.compare(other, bytes)).to.not.equal(0);
    expect(other.length).to.equal(bytes.length);
  });

  it('yields chunks of whole packets no larger than chunkBytes, and counts the packets', () => {
    const stream = createGenerator({ ...BASE, chunkBytes: 64 * 1024, packetSize: 192 });
    const sizes = [...stream.chunks()].map((c) => c.length);
    expect(sizes.every((s) => s % 192 === 0 && s <= 64 * 1024)).to.be.true;
    expect(sizes.length).to.equal(Math.ceil((packets.length * 192) / (64 * 1024 - 192)));
    expect(stream.totalPackets).to.equal(packets.length);
    expect(sizes.reduce((a, b) => a + b, 0)).to.equal(packets.length * 192);
    expect(stream.faults).to.deep.equal([]);
  });

  it('describes its layout', () => {
    expect(layout).to.deep.include({ packetSize: 188, pmtPid: 0x1000, videoPid: 0x100, audioPid: 0x101, pcrPid: 0x100, elementaryPids: [0x100, 0x101] });
  });

  it('rejects bad options with a message naming the option', () => {
    expect(generatorError({ ...BASE, audioPid: 0x100 }).message).to.equal('audioPid and videoPid are both 0x100');
    expect(generatorError({ ...BASE, durationSeconds: 0 }).message).to.equal('durationSeconds must be a positive number or Infinity, got 0');
    expect(generatorError({ ...BASE, durationSeconds: NaN }).message).to.equal('durationSeconds must be a positive number or Infinity, got NaN');
    expect(generatorError({ ...BASE, packetSize: 190 as 188 }).message).to.equal('packetSize must be 188, 192 or 204, got 190');
    expect(generatorError({ ...BASE, videoPid: 0x1fff }).message).to.equal('videoPid must be 0x10..0x1FFE, got 8191');
    expect(generatorError({ ...BASE, pcrPid: 0x1000 }).message).to.equal('pcrPid 0x1000 is not the PID of an elementary stream');
    expect(generatorError({ ...BASE, bitrate: 180_000 }).message).to.match(/^bitrate too low/);
    expect(generatorError({ ...BASE, videoBitrate: 5_000_000 }).message).to.match(/^videoBitrate 5000000 does not fit/);
    expect(generatorError({ ...BASE, gopLength: 25 }).message).to.equal('gopLength 25 must be a multiple of bFrames + 1 (3)');
    expect(generatorError({ ...BASE, pcrIntervalMs: 1 }).message).to.equal('pcrIntervalMs 1 is too short for 3000000 bits/s: at least 3 ms needed');
    expect(generatorError({ ...BASE, durationSeconds: 0 }).code).to.equal('ERR_GENERATOR_OPTIONS');
  });
});

