/**
 * Bit rate over time per PID, for the report's stacked plot: every packet of
 * a recording counted into buckets of stream time, read from the bytes
 * alone (no demuxer: this only needs each packet's PID and the PCRs).
 *
 * Time is the first PCR PID's clock, counted from its first PCR. A packet's
 * time is that of the latest PCR before it plus its bytes since at the rate
 * of the PCR interval before (ISO 13818-1 2.4.2.2: bytes arrive at the rate
 * the PCRs around them give), so a PCR gap does not pile its packets into
 * the bucket of the PCR before it. Packets before the second PCR take the
 * time of the latest PCR (no rate yet); before the first, the first bucket. A PCR that goes back or jumps by more than MAX_STEP_27MHZ (a
 * discontinuity, a new time base) moves the time on by nothing: the packets
 * after it go on filling the bucket they were in. Bytes that are no packet
 * are skipped (resynchronised on the sync byte); nothing here throws.
 *
 * The recording's end: packets more than MAX_STEP_27MHZ past the latest PCR
 * wait; a later PCR puts them at that limit (as above), the end of the
 * recording at the rate before, uncapped (no later PCR says otherwise). The
 * last bucket's rate is its bytes over the time it covers, from its start to
 * the last packet's end, so a recording that ends inside a bucket neither
 * dips nor spikes there (issue 36: a 1 s PCR recording spiked to 6x its
 * rate in its last 0.1 s, its tail piled into a bucket it did not reach).
 */
import { PCR_HZ, pcrDelta27MHz, readPcr27MHz } from './clock.js';
import { detectPacketLayout, type PacketSize } from './packet-layout.js';
import { TS_PACKET_SIZE, TS_SYNC_BYTE } from './ts-packet.js';

/** A PCR step longer than this (1 s) is a discontinuity, not time passing (TR 101 290 2.3b: 100 ms; generous). */
const MAX_STEP_27MHZ = PCR_HZ;
/** Bytes searched for the packet size before giving up on a recording that holds no TS (kept whole otherwise). */
const MAX_UNFRAMED_BYTES = 1 << 20;

export interface PidBitrate {
  pid: number;
  /** Bits per second in each bucket: the PID's bytes (188 a packet) over the bucket's length (the last: the time it covers). */
  bitsPerSecond: number[];
}

export interface PidBitrateSeries {
  bucketSeconds: number;
  /** Bucket i covers stream time [i * bucketSeconds, (i + 1) * bucketSeconds); the last one as far as the last PCR. */
  bucketCount: number;
  /**
   * Seconds the last bucket covers (the others: bucketSeconds): to the end of
   * the last packet at the byte rate before it; without a rate, to one PCR
   * step after the last PCR, or a whole bucket.
   */
  lastBucketSeconds: number;
  /** The PID whose PCR gives the time, or null (no PCR: everything counts in one bucket). */
  clockPid: number | null;
  /** Every PID seen, ascending. */
  pids: PidBitrate[];
  /** Packets counted, all PIDs. */
  packets: number;
}

export class PidBitrateCounter {
  private readonly bytes = new Map<number, number[]>();
  private remainder = new Uint8Array(0);
  private packetSize: PacketSize | null = null;
  private clockPid = -1;
  private lastPcr27MHz = NaN;
  /** Time since the first PCR, in whole 27 MHz ticks: sums of steps stay exact (0.1 s steps in seconds would not). */
  private time27MHz = 0;
  /** The latest regular PCR step, ticks: the packets after the last PCR span about one more. */
  private lastStep27MHz = 0;
  /** Bytes read (whole packets at their stride), and at the latest PCR of the clock PID. */
  private position = 0;
  private lastPcrPosition = 0;
  /** Ticks per byte over the PCR interval before the latest PCR; 0 before there is one. */
  private ticksPerByte = 0;
  private bucket = 0;
  private packets = 0;
  /** Bytes per PID and uncapped bucket of the packets more than MAX_STEP_27MHZ past the latest PCR, not yet counted. */
  private pastLimit = new Map<number, Map<number, number>>();

  private readonly bucket27MHz: number;

  constructor(private readonly bucketSeconds: number) {
    this.bucket27MHz = bucketSeconds * PCR_HZ;
  }

  /** The next bytes of the recording, in order. */
  push(chunk: Uint8Array): void {
    let bytes = chunk;
    if (this.remainder.length > 0) {
      bytes = new Uint8Array(this.remainder.length + chunk.length);
      bytes.set(this.remainder);
      bytes.set(chunk, this.remainder.length);
    }
    let pos = 0;
    if (this.packetSize === null) {
      const layout = detectPacketLayout(bytes, 0, bytes.length, false);
      if (layout === null) {
        this.remainder = bytes.length > MAX_UNFRAMED_BYTES ? new Uint8Array(0) : bytes.slice();
        return;
      }
      this.packetSize = layout.size;
      pos = layout.firstSync;
    }
    const stride = this.packetSize;
    while (pos + TS_PACKET_SIZE <= bytes.length) {
      if (bytes[pos] !== TS_SYNC_BYTE) {
        pos++;
        continue;
      }
      this.packet(bytes, pos);
      pos += stride;
    }
    // A 192 or 204-byte packet's tail past the end is skipped by the resync at the next chunk's start.
    this.remainder = pos < bytes.length ? bytes.slice(pos) : new Uint8Array(0);
  }

  /** ISO 13818-1 2.4.3.2 and 2.4.3.4: the PID, and the PCR of an adaptation field that has one. */
  private packet(bytes: Uint8Array, pos: number): void {
    const pid = ((bytes[pos + 1] & 0x1f) << 8) | bytes[pos + 2];
    const hasAdaptation = (bytes[pos + 3] & 0x20) !== 0;
    if (hasAdaptation && bytes[pos + 4] >= 7 && (bytes[pos + 5] & 0x10) !== 0 && (this.clockPid < 0 || this.clockPid === pid)) {
      this.clock(pid, readPcr27MHz(bytes, pos + 6));
    }
    const since27MHz = (this.position - this.lastPcrPosition) * this.ticksPerByte;
    this.packets++;
    this.position += TS_PACKET_SIZE;
    if (since27MHz > MAX_STEP_27MHZ) {
      // Where it goes depends on what follows: a PCR (the limit) or the end (its own time).
      const waiting = this.pastLimit.get(pid) ?? new Map<number, number>();
      const uncapped = Math.floor((this.time27MHz + since27MHz) / this.bucket27MHz);
      waiting.set(uncapped, (waiting.get(uncapped) ?? 0) + TS_PACKET_SIZE);
      this.pastLimit.set(pid, waiting);
      return;
    }
    const bucket = Math.floor((this.time27MHz + since27MHz) / this.bucket27MHz);
    if (bucket > this.bucket) this.bucket = bucket;
    this.add(pid, this.bucket, TS_PACKET_SIZE);
  }

  private add(pid: number, bucket: number, bytes: number): void {
    let counts = this.bytes.get(pid);
    if (counts === undefined) {
      counts = [];
      this.bytes.set(pid, counts);
    }
    while (counts.length <= bucket) counts.push(0);
    counts[bucket] += bytes;
  }

  /** The waiting packets, each at `bucketOf` its uncapped bucket. */
  private placePastLimit(bucketOf: (uncapped: number) => number): void {
    for (const [pid, waiting] of this.pastLimit) {
      for (const [uncapped, bytes] of waiting) {
        const bucket = bucketOf(uncapped);
        if (bucket > this.bucket) this.bucket = bucket;
        this.add(pid, bucket, bytes);
      }
    }
    this.pastLimit.clear();
  }

  private clock(pid: number, pcr27MHz: number): void {
    if (this.pastLimit.size > 0) {
      const limitBucket = Math.floor((this.time27MHz + MAX_STEP_27MHZ) / this.bucket27MHz);
      this.placePastLimit(() => limitBucket);
    }
    if (this.clockPid >= 0) {
      const step27MHz = pcrDelta27MHz(this.lastPcr27MHz, pcr27MHz);
      if (step27MHz > 0 && step27MHz <= MAX_STEP_27MHZ) {
        this.time27MHz += step27MHz;
        this.lastStep27MHz = step27MHz;
        this.ticksPerByte = this.position > this.lastPcrPosition ? step27MHz / (this.position - this.lastPcrPosition) : 0;
      } else {
        this.ticksPerByte = 0;
      }
    }
    this.clockPid = pid;
    this.lastPcr27MHz = pcr27MHz;
    this.lastPcrPosition = this.position;
    // Never back: a packet extrapolated past this PCR's bucket stays counted where it was.
    this.bucket = Math.max(this.bucket, Math.floor(this.time27MHz / this.bucket27MHz));
  }

  finish(): PidBitrateSeries {
    this.placePastLimit((uncapped) => uncapped);
    const bucketCount = this.bucket + 1;
    // The last packet's end at the rate before it; without a rate, one PCR step past the last PCR; without PCR steps, a whole bucket.
    const end27MHz =
      this.ticksPerByte > 0 ? this.time27MHz + (this.position - this.lastPcrPosition) * this.ticksPerByte : this.time27MHz + this.lastStep27MHz;
    const covered = Math.min(this.bucketSeconds, (end27MHz - this.bucket * this.bucket27MHz) / PCR_HZ);
    const lastBucketSeconds = end27MHz > this.time27MHz && covered > 0 ? covered : this.bucketSeconds;
    const pids = [...this.bytes.entries()]
      .sort(([a], [b]) => a - b)
      .map(([pid, counts]) => ({
        pid,
        bitsPerSecond: Array.from({ length: bucketCount }, (_, i) => ((counts[i] ?? 0) * 8) / (i === bucketCount - 1 ? lastBucketSeconds : this.bucketSeconds)),
      }));
    return { bucketSeconds: this.bucketSeconds, bucketCount, lastBucketSeconds, clockPid: this.clockPid < 0 ? null : this.clockPid, pids, packets: this.packets };
  }
}
