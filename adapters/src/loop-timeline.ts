/**
 * A looped recording made continuous: every pass after the first is the
 * first one moved on in time, as if the encoder had kept running. Its PCRs
 * (ISO 13818-1 2.4.3.5), PTS and DTS (2.4.3.7) get the duration of a pass
 * added once per pass, and its continuity counters (2.4.3.3) go on from
 * where the pass before left them. Without it the wrap sends time back to
 * the file's start: a browser's player freezes or starts over, and ffmpeg
 * (the transcoder) drops every frame after it as non-monotonic.
 *
 * The first pass is read as it is, and measured: its first and last PCR (of
 * the first PID carrying one), the PCR interval before the last, and each
 * PID's first and last counter. A pass lasts from the first PCR to one
 * interval after the last. KLV payloads are left as they are: a packet's
 * PTS names its frame, which is what the viewer matches on.
 */
import { PCR_MODULUS, PTS_MODULUS, readPcr27MHz, readTimestamp90kHz, TS_PACKET_SIZE, TS_SYNC_BYTE, writePcr, writeTimestamp, type PacketLayout } from '@klvscope/core';
import type { PacketInput } from './replay.js';

const PCR_TICKS_PER_PTS_TICK = 300;
/** ISO 13818-1 2.4.3.7: program_stream_map, padding, private_stream_2, ECM, EMM, DSMCC, H.222.1 type E and the directory have no optional PES header. */
const HAS_OPTIONAL_HEADER = (streamId: number): boolean => ![0xbc, 0xbe, 0xbf, 0xf0, 0xf1, 0xf2, 0xf8, 0xff].includes(streamId);

/** What the first pass told: the duration of a pass and the counter step of each PID. */
interface PassMeasure {
  firstPcr: number;
  lastPcr: number;
  lastIntervalPcr: number;
  pcrPid: number;
  /** The decoding times (DTS, else PTS) of the PCR PID's PES, in 90 kHz ticks: first, last, and the step before the last (a frame). */
  firstDts: number;
  lastDts: number;
  lastIntervalDts: number;
  firstCounter: Map<number, number>;
  lastCounter: Map<number, number>;
}

/** The input, each pass after the first rewritten to follow on from the one before. */
export function continuousLoop(input: PacketInput): PacketInput {
  const measure: PassMeasure = { firstPcr: -1, lastPcr: -1, lastIntervalPcr: 0, pcrPid: -1, firstDts: -1, lastDts: -1, lastIntervalDts: 0, firstCounter: new Map(), lastCounter: new Map() };
  let pass = 0;
  return {
    ...input,
    chunks(signal) {
      const rewriter = new PassRewriter(input.layout, measure, pass++);
      return rewriter.rewrite(input.chunks(signal));
    },
  };
}

class PassRewriter {
  /** The file offset of the next packet's sync byte. */
  private nextSyncAt: number;
  private carry: Uint8Array = new Uint8Array(0);
  private carryOffset = 0;
  /** Added to every PTS and DTS of this pass (its PCRs get 300 times as much). */
  private readonly ptsShift: number;

  constructor(
    private readonly layout: PacketLayout,
    private readonly measure: PassMeasure,
    private readonly pass: number,
  ) {
    this.nextSyncAt = layout.firstSync;
    this.ptsShift = pass === 0 ? 0 : (passDuration90kHz(measure) * pass) % PTS_MODULUS;
  }

  /** The same bytes, cut at packet boundaries, each packet rewritten (the first pass only measured). */
  async *rewrite(chunks: AsyncIterable<{ offset: number; bytes: Uint8Array }> | Iterable<{ offset: number; bytes: Uint8Array }>): AsyncGenerator<{ offset: number; bytes: Uint8Array }> {
    for await (const chunk of chunks) {
      const bytes = this.carry.length === 0 ? chunk.bytes.slice() : concat(this.carry, chunk.bytes);
      const offset = this.carry.length === 0 ? chunk.offset : this.carryOffset;
      const end = offset + bytes.length;
      while (this.nextSyncAt + TS_PACKET_SIZE <= end) {
        this.packet(bytes, this.nextSyncAt - offset);
        this.nextSyncAt += this.layout.size;
      }
      // Up to the next packet's start (or the chunk's end): what follows waits for the rest of its packet.
      const cut = Math.min(bytes.length, Math.max(0, this.nextSyncAt - offset));
      this.carry = bytes.subarray(cut);
      this.carryOffset = offset + cut;
      if (cut > 0) yield { offset, bytes: bytes.subarray(0, cut) };
    }
    if (this.carry.length > 0) yield { offset: this.carryOffset, bytes: this.carry };
  }

  private packet(b: Uint8Array, pos: number): void {
    if (pos < 0 || b[pos] !== TS_SYNC_BYTE) return;
    const pid = ((b[pos + 1] & 0x1f) << 8) | b[pos + 2];
    const afc = (b[pos + 3] >> 4) & 0x3;
    this.counter(b, pos, pid, afc);
    let payload = pos + 4;
    if (afc & 0x2) {
      const length = b[pos + 4];
      // ISO 13818-1 2.4.3.4: PCR_flag, the PCR in the 6 bytes after the flags.
      if (length >= 7 && (b[pos + 5] & 0x10) !== 0) this.pcr(b, pos + 6, pid);
      payload += 1 + length;
    }
    if ((afc & 0x1) !== 0 && (b[pos + 1] & 0x40) !== 0) this.timestamps(b, payload, pos + TS_PACKET_SIZE, pid);
  }

  private counter(b: Uint8Array, pos: number, pid: number, afc: number): void {
    const counter = b[pos + 3] & 0x0f;
    if (this.pass === 0) {
      if ((afc & 0x1) === 0) return;
      if (!this.measure.firstCounter.has(pid)) this.measure.firstCounter.set(pid, counter);
      this.measure.lastCounter.set(pid, counter);
      return;
    }
    const first = this.measure.firstCounter.get(pid);
    const last = this.measure.lastCounter.get(pid);
    if (first === undefined || last === undefined) return;
    // A pass moves each counter on by (last + 1 - first): the first packet of the next pass follows the last of this one.
    const step = (last + 1 - first + 16) % 16;
    b[pos + 3] = (b[pos + 3] & 0xf0) | ((counter + step * this.pass) % 16);
  }

  private pcr(b: Uint8Array, at: number, pid: number): void {
    const m = this.measure;
    if (this.pass === 0) {
      if (m.pcrPid === -1) m.pcrPid = pid;
      if (pid !== m.pcrPid) return;
      const pcr = readPcr27MHz(b, at);
      if (m.firstPcr < 0) m.firstPcr = pcr;
      else m.lastIntervalPcr = (pcr - m.lastPcr + PCR_MODULUS) % PCR_MODULUS;
      m.lastPcr = pcr;
      return;
    }
    writePcr(b, at, (readPcr27MHz(b, at) + this.ptsShift * PCR_TICKS_PER_PTS_TICK) % PCR_MODULUS);
  }

  /** ISO 13818-1 2.4.3.7: the PES header's PTS and DTS, when the packet starts a PES that has them. */
  private timestamps(b: Uint8Array, at: number, end: number, pid: number): void {
    if (at + 19 > end || b[at] !== 0 || b[at + 1] !== 0 || b[at + 2] !== 1) return;
    // Table 2-21: the streams whose PES header has the optional fields ('10' marker bits) are the ones that may carry PTS.
    if (!HAS_OPTIONAL_HEADER(b[at + 3]) || b[at + 6] >> 6 !== 0x2) return;
    const flags = b[at + 7] >> 6;
    if (this.pass === 0) {
      if (pid === this.measure.pcrPid && (flags & 0x2) !== 0) this.decodingTime(readTimestamp90kHz(b, flags === 0x3 ? at + 14 : at + 9));
      return;
    }
    if ((flags & 0x2) !== 0) this.shift(b, at + 9, flags === 0x3 ? 0x3 : 0x2);
    if (flags === 0x3) this.shift(b, at + 14, 0x1);
  }

  private decodingTime(dts: number): void {
    const m = this.measure;
    if (m.firstDts < 0) m.firstDts = dts;
    else m.lastIntervalDts = (dts - m.lastDts + PTS_MODULUS) % PTS_MODULUS;
    m.lastDts = dts;
  }

  private shift(b: Uint8Array, at: number, prefix: number): void {
    writeTimestamp(b, at, prefix, (readTimestamp90kHz(b, at) + this.ptsShift) % PTS_MODULUS);
  }
}

/**
 * How long one pass lasts: from the first frame's decoding time to one frame after the last (the PCR PID's PES),
 * else from the first PCR to one PCR interval after the last. Frames are what a player counts: PCRs may start
 * before the first frame and end before the last.
 */
function passDuration90kHz(m: PassMeasure): number {
  if (m.firstDts >= 0 && m.lastIntervalDts > 0) return (m.lastDts - m.firstDts + PTS_MODULUS) % PTS_MODULUS + m.lastIntervalDts;
  if (m.firstPcr < 0) return 0;
  return Math.round(((m.lastPcr - m.firstPcr + PCR_MODULUS) % PCR_MODULUS + m.lastIntervalPcr) / PCR_TICKS_PER_PTS_TICK);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
