/**
 * A looping replay as one continuous stream: each pass after the first is
 * rewritten so that a receiver sees no wrap. Without this every restart of
 * the file is a fault to every check downstream: the PCR going back (ISO
 * 13818-1 2.4.3.5 asks a discontinuity_indicator for that), a continuity
 * counter out of sequence on every PID (2.4.3.3), PTS going back, and the
 * KLV time stamps (MISB ST 0601 item 2) going back.
 *
 * Each later pass is shifted in time by the length of the pass before it,
 * applied to every PCR, PTS and DTS; each PID's continuity counter carries
 * on from the last packet sent; and the ST 0601 time stamp of a KLV packet
 * moves by the same time, its checksum (item 1) by as much. The first pass
 * goes out untouched. One implementation for `klvscope replay --loop` and
 * the streaming module's looped file source (paced-ts-source.ts).
 *
 * A pass lasts from its first frame's decoding time to one frame after its
 * last (the PES of the PCR PID: DTS, else PTS), which is what a player
 * counts; a stream whose PCR PID has no time-stamped PES, or whose last PCR
 * comes after its last frame's end, falls back to its PCRs (a PCR must never
 * go back): first PCR to last, carried on over the packets across the wrap at
 * the pass's own rate. The PCR measure is
 * wrong whenever the PCR is not on every frame: ffmpeg puts one on every
 * other frame of a 25 fps clip (80 ms apart), so a 25-frame pass spans
 * 960 ms of PCR plus an 80 ms last interval, 1,040 ms, where its frames
 * last 1,000 ms; every wrap then left a 40 ms hole in the PTS (docs/streaming.md).
 */
import { pcrDelta27MHz, readPcr27MHz, readTimestamp90kHz, writePcr, writeTimestamp, PCR_MODULUS, PTS_MODULUS, NULL_PID, TS_PACKET_SIZE, type PacketLayout } from '@klvscope/core';
import { shiftSt0601Timestamps, type PayloadRange } from './st0601-time-shift.js';

const PID_COUNT = 8192;
/** The longest PES held to shift its KLV time (a KLV PES is a few hundred bytes; video says length 0 or is long). */
const MAX_HELD_PES_BYTES = 16 * 1024;

export class LoopContinuity {
  private pass = 0;
  /** Added to every PCR of this pass, 27 MHz: a multiple of 300 (whole 90 kHz ticks) when passes are measured by their frames, so PTS move by exactly as much then. */
  private shift27MHz = 0;
  private pcrPid = -1;
  /** The first and last PCR of this pass as read from the file, and the interval before the last. */
  private firstPcr27MHz = NaN;
  private lastPcr27MHz = NaN;
  private lastStep27MHz = NaN;
  /** Packets of this pass so far, and the packet numbers (in the pass) of its first and last PCR. */
  private packetsInPass = 0;
  private firstPcrPacket = -1;
  private lastPcrPacket = -1;
  /** The decoding times (DTS, else PTS) of the PCR PID's PES in this pass as read from the file: first, last, and the step before the last (a frame). */
  private firstDts90kHz = NaN;
  private lastDts90kHz = NaN;
  private lastDtsStep90kHz = NaN;
  /** The continuity counter of the last packet with payload sent per PID (-1: none yet). */
  private readonly lastCounter = new Int8Array(PID_COUNT).fill(-1);
  /** Added to each PID's counter in this pass; set by the PID's first packet with payload in the pass. */
  private readonly counterShift = new Int8Array(PID_COUNT);
  private readonly counterShiftSet = new Uint8Array(PID_COUNT);
  /** Each PID's PES under way, its payload to be searched for ST 0601 time stamps once whole. */
  private readonly klvPes = new Map<number, KlvPesRewrite>();

  /** Where the earliest PES still under way starts (a position in the buffer given to `rewrite`), or -1: bytes from there must not go out yet. */
  heldFrom(): number {
    let from = -1;
    for (const pes of this.klvPes.values()) {
      const start = pes.firstByte();
      if (start >= 0 && (from < 0 || start < from)) from = start;
    }
    return from;
  }

  /** The held bytes moved: `cut` bytes before them went out, and they are now in `bytes`. */
  rebase(bytes: Uint8Array, cut: number): void {
    for (const pes of this.klvPes.values()) pes.rebase(bytes, cut);
  }

  /** The end of the pass: a PES under way is as whole as it gets. */
  endPass(): void {
    for (const pes of this.klvPes.values()) pes.end();
  }

  /** The file starts again: the next pass comes one pass length later. */
  startPass(): void {
    const length27MHz = this.passLength27MHz();
    if (length27MHz !== null) this.shift27MHz += Math.round(length27MHz);
    this.endPass();
    this.pass++;
    this.firstPcr27MHz = NaN;
    this.lastPcr27MHz = NaN;
    this.firstDts90kHz = NaN;
    this.lastDts90kHz = NaN;
    this.lastDtsStep90kHz = NaN;
    this.packetsInPass = 0;
    this.firstPcrPacket = -1;
    this.lastPcrPacket = -1;
    this.counterShiftSet.fill(0);
  }

  /**
   * The pass just read: by its frames when the PCR PID's PES carry time stamps, else by its PCRs; null
   * without either. By its PCRs too when its PCRs outlast its frames (a file cut inside its last frame, or
   * a generated one with a PCR past the last frame's end): by its frames, the next pass's first PCR would
   * come before this pass's last, a PCR going back at every wrap.
   */
  private passLength27MHz(): number | null {
    const pcrSpan27MHz = Number.isNaN(this.firstPcr27MHz) || Number.isNaN(this.lastPcr27MHz) ? null : pcrDelta27MHz(this.firstPcr27MHz, this.lastPcr27MHz);
    if (!Number.isNaN(this.lastDtsStep90kHz) && this.lastDtsStep90kHz > 0) {
      const byFrames27MHz = (((this.lastDts90kHz - this.firstDts90kHz + PTS_MODULUS) % PTS_MODULUS) + this.lastDtsStep90kHz) * 300;
      if (pcrSpan27MHz === null || byFrames27MHz > pcrSpan27MHz) return byFrames27MHz;
    }
    if (pcrSpan27MHz === null) return null;
    // The PCR ramp carried on over the packets after the last PCR and before the first, at the pass's own rate
    // (ISO 13818-1 2.4.2.2: a byte's time is interpolated between PCRs), so the wrap's PCR is where a
    // constant-rate stream would put it; with a single PCR, its last interval.
    const packetsBetween = this.lastPcrPacket - this.firstPcrPacket;
    if (packetsBetween <= 0) return pcrSpan27MHz + (Number.isNaN(this.lastStep27MHz) ? 0 : this.lastStep27MHz);
    const packetsAcrossWrap = this.packetsInPass - this.lastPcrPacket + this.firstPcrPacket;
    return pcrSpan27MHz + Math.round((packetsAcrossWrap * pcrSpan27MHz) / packetsBetween);
  }

  private decodingTime(dts90kHz: number): void {
    if (Number.isNaN(this.firstDts90kHz)) this.firstDts90kHz = dts90kHz;
    else this.lastDtsStep90kHz = (dts90kHz - this.lastDts90kHz + PTS_MODULUS) % PTS_MODULUS;
    this.lastDts90kHz = dts90kHz;
  }

  /** Rewrites the 188-byte packet at `pos` in place (the packets of the first pass stay as they are). */
  rewrite(bytes: Uint8Array, pos: number): void {
    this.packetsInPass++;
    const pid = ((bytes[pos + 1] & 0x1f) << 8) | bytes[pos + 2];
    if (pid === NULL_PID) return;
    const control = (bytes[pos + 3] >>> 4) & 0x03;
    const hasAdaptation = (control & 0x02) !== 0;
    const hasPayload = (control & 0x01) !== 0;
    let payloadAt = pos + 4;
    if (hasAdaptation) {
      const length = bytes[pos + 4];
      // ISO 13818-1 2.4.3.4: PCR_flag, then the PCR right after the flags byte.
      if (length >= 7 && (bytes[pos + 5] & 0x10) !== 0) this.pcr(bytes, pos + 6, pid);
      payloadAt = pos + 5 + length;
    }
    if (hasPayload) this.counter(bytes, pos, pid);
    if (!hasPayload || payloadAt >= pos + TS_PACKET_SIZE) return;
    const unitStart = (bytes[pos + 1] & 0x40) !== 0;
    if (unitStart) this.pesStart(bytes, payloadAt, pos + TS_PACKET_SIZE, pid);
    else if (this.pass > 0) this.klvPes.get(pid)?.add(bytes, payloadAt, pos + TS_PACKET_SIZE);
  }

  private pcr(bytes: Uint8Array, at: number, pid: number): void {
    if (this.pcrPid < 0) this.pcrPid = pid;
    const pcr27MHz = readPcr27MHz(bytes, at);
    if (pid === this.pcrPid) {
      if (Number.isNaN(this.firstPcr27MHz)) {
        this.firstPcr27MHz = pcr27MHz;
        this.firstPcrPacket = this.packetsInPass - 1;
      } else this.lastStep27MHz = pcrDelta27MHz(this.lastPcr27MHz, pcr27MHz);
      this.lastPcr27MHz = pcr27MHz;
      this.lastPcrPacket = this.packetsInPass - 1;
    }
    if (this.pass > 0) writePcr(bytes, at, (pcr27MHz + this.shift27MHz) % PCR_MODULUS);
  }

  /** ISO 13818-1 2.4.3.3: the counter of a packet with payload is one more than the last; this pass's carries on. */
  private counter(bytes: Uint8Array, pos: number, pid: number): void {
    const read = bytes[pos + 3] & 0x0f;
    if (this.pass > 0) {
      if (this.counterShiftSet[pid] === 0) {
        this.counterShiftSet[pid] = 1;
        this.counterShift[pid] = this.lastCounter[pid] < 0 ? 0 : (this.lastCounter[pid] + 1 - read) & 0x0f;
      }
      bytes[pos + 3] = (bytes[pos + 3] & 0xf0) | ((read + this.counterShift[pid]) & 0x0f);
    }
    this.lastCounter[pid] = bytes[pos + 3] & 0x0f;
  }

  /** A PES starts: its decoding time measured (the PCR PID's), its PTS and DTS shifted (2.4.3.7), and its payload followed if it carries KLV. */
  private pesStart(bytes: Uint8Array, at: number, end: number, pid: number): void {
    this.klvPes.get(pid)?.end();
    if (end - at < 9 || bytes[at] !== 0 || bytes[at + 1] !== 0 || bytes[at + 2] !== 1) return;
    const streamId = bytes[at + 3];
    if (!hasPesHeaderFields(streamId)) return;
    const flags = bytes[at + 7] >>> 6;
    if (pid === this.pcrPid && flags >= 2 && end - at >= 19) this.decodingTime(readTimestamp90kHz(bytes, flags === 3 ? at + 14 : at + 9));
    if (this.pass === 0) return;
    // To the nearest 90 kHz tick: the PCR keeps its exact ramp (a PCR off its constant-rate line by more than 500 ns is a fault, ISO 13818-1 2.4.2.2), the PTS lose at most 5.6 us.
    const shift90kHz = Math.round(this.shift27MHz / 300);
    if (flags >= 2 && end - at >= 14) writeTimestamp(bytes, at + 9, bytes[at + 9] >>> 4, (readTimestamp90kHz(bytes, at + 9) + shift90kHz) % PTS_MODULUS);
    if (flags === 3 && end - at >= 19) writeTimestamp(bytes, at + 14, bytes[at + 14] >>> 4, (readTimestamp90kHz(bytes, at + 14) + shift90kHz) % PTS_MODULUS);
    const payloadAt = at + 9 + bytes[at + 8];
    if (payloadAt >= end) return;
    let pes = this.klvPes.get(pid);
    if (!pes) this.klvPes.set(pid, (pes = new KlvPesRewrite()));
    // Only a short PES that says its length is held (KLV); a video PES (length 0) is not searched.
    const pesLength = (bytes[at + 4] << 8) | bytes[at + 5];
    if (pesLength === 0 || pesLength > MAX_HELD_PES_BYTES) return;
    pes.begin(this.shift27MHz / 27, pesLength - 3 - bytes[at + 8]);
    pes.add(bytes, payloadAt, end);
  }
}

/** ISO 13818-1 Table 2-21: the stream_ids whose PES packets have no optional header. */
function hasPesHeaderFields(streamId: number): boolean {
  return streamId !== 0xbc && streamId !== 0xbe && streamId !== 0xbf && streamId !== 0xf0 && streamId !== 0xf1 && streamId !== 0xff && streamId !== 0xf2 && streamId !== 0xf8;
}

/**
 * The payload of one PES, as ranges of the packets it came in (rewritten in
 * place, so held by reference until the PES is whole: a KLV PES is short and
 * says its length). Once whole, its ST 0601 time stamps are shifted.
 */
class KlvPesRewrite {
  private ranges: PayloadRange[] = [];
  private shiftMicros = 0;
  /** Payload bytes still to come. */
  private remaining = 0;

  begin(shiftMicros: number, payloadLength: number): void {
    this.ranges = [];
    this.shiftMicros = shiftMicros;
    this.remaining = payloadLength;
  }

  add(bytes: Uint8Array, start: number, end: number): void {
    const taken = Math.min(end - start, this.remaining);
    if (taken <= 0) return;
    this.ranges.push({ bytes, start, end: start + taken });
    this.remaining -= taken;
    if (this.remaining === 0) this.end();
  }

  firstByte(): number {
    return this.ranges.length === 0 ? -1 : this.ranges[0].start;
  }

  rebase(bytes: Uint8Array, cut: number): void {
    for (const range of this.ranges) {
      range.bytes = bytes;
      range.start -= cut;
      range.end -= cut;
    }
  }

  end(): void {
    if (this.ranges.length > 0) shiftSt0601Timestamps(this.ranges, this.shiftMicros);
    this.ranges = [];
    this.remaining = 0;
  }
}

type Chunk = { offset: number; bytes: Uint8Array };

/**
 * One pass of the file through `continuity`: whole packets rewritten in
 * place, the bytes of a KLV PES under way held back until it is whole (then
 * its time stamps are shifted), the rest passed on as it comes.
 */
export async function* continuousPass(chunks: AsyncIterable<Chunk> | Iterable<Chunk>, layout: PacketLayout, continuity: LoopContinuity): AsyncGenerator<Chunk> {
  let held = new Uint8Array(0);
  /** File offset of held[0]; the next packet's sync byte in `held`. */
  let heldOffset = 0;
  let nextPacket = layout.firstSync;
  for await (const chunk of chunks) {
    if (held.length === 0) heldOffset = chunk.offset;
    const joined = new Uint8Array(held.length + chunk.bytes.length);
    joined.set(held);
    joined.set(chunk.bytes, held.length);
    continuity.rebase(joined, 0);
    for (; nextPacket + TS_PACKET_SIZE <= joined.length; nextPacket += layout.size) continuity.rewrite(joined, nextPacket);
    const holdFrom = continuity.heldFrom();
    const out = Math.min(holdFrom < 0 ? joined.length : holdFrom, nextPacket);
    if (out > 0) yield { offset: heldOffset, bytes: joined.subarray(0, out) };
    held = joined.slice(out);
    continuity.rebase(held, out);
    heldOffset += out;
    nextPacket -= out;
  }
  continuity.endPass();
  if (held.length > 0) yield { offset: heldOffset, bytes: held };
}
