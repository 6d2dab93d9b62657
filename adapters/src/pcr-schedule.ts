/**
 * When each transport packet of a recording is due, from the PCRs of its
 * program (ISO 13818-1 2.4.2.2: the PCR is the time its byte arrives at the
 * decoder). Packets are gathered until the next PCR of the PCR PID (the first
 * PID seen carrying one); then the packets since the previous PCR get times
 * interpolated linearly by packet count, the PCR packet itself at its PCR.
 *
 * Stream time is counted in milliseconds from the first PCR and only ever
 * grows: a PCR that goes backwards, jumps by more than MAX_PCR_STEP_MS or
 * follows a discontinuity_indicator (2.4.3.5), and the restart of a looped
 * file, re-anchor the clock: the packets up to it continue at the rate of the
 * last regular interval, and the new PCR counts from there.
 */
import { pcrDelta27MHz, readPcr27MHz, TS_PACKET_SIZE, TS_SYNC_BYTE } from '@klvscope/core';

/** A larger step between two PCRs is a jump, not time (ISO 13818-1 2.7.2 allows 100 ms), unless the packets between them explain it (below). */
export const MAX_PCR_STEP_MS = 500;
/**
 * Some real streams carry a PCR only once a second (kwiver's aphill sample:
 * 1 frame/s MPEG-2 video, a PCR per frame). A longer step is time, not a
 * jump, when it is the first one (no rate to judge it by yet) and at most
 * this long, or when the last regular rate explains it within a factor of two.
 */
export const MAX_SPARSE_PCR_STEP_MS = 5_000;
/** Packets held while waiting for a PCR (16 MiB): beyond it they continue at the last rate. */
export const MAX_SEGMENT_PACKETS = Math.floor((16 * 1024 * 1024) / TS_PACKET_SIZE);

const PCR_TICKS_PER_MS = 27_000;
const INITIAL_SEGMENT_PACKETS = 512;

export class PcrSchedule {
  /** The PID whose PCRs pace the stream, or -1 before the first PCR. */
  pcrPid = -1;
  /** The packets since the last PCR packet, copied, 188 bytes each; `segmentPackets` of them. */
  segment = new Uint8Array(INITIAL_SEGMENT_PACKETS * TS_PACKET_SIZE);
  segmentPackets = 0;
  /** Once the segment is closed: packet i is due at `startMs + (i + 1) * stepMs`. */
  startMs = 0;
  stepMs = 0;
  /** Milliseconds per packet of the last regular PCR interval, or NaN before one. */
  msPerPacket = NaN;
  /** Stream time of the last packet of the last closed segment. */
  private anchorMs = 0;
  private lastPcr27MHz = -1;
  private reanchor = false;

  /**
   * Copies the 188-byte packet at `bytes[pos]` into the segment. True when it
   * closes the segment (a PCR of the PCR PID, or the segment is full): the
   * caller takes the packets and their times, then calls `clear()`.
   */
  add(bytes: Uint8Array, pos: number): boolean {
    const index = this.segmentPackets;
    if ((index + 1) * TS_PACKET_SIZE > this.segment.length) this.grow();
    this.segment.set(bytes.subarray(pos, pos + TS_PACKET_SIZE), index * TS_PACKET_SIZE);
    this.segmentPackets = index + 1;
    const pcr27MHz = this.pcrOf(bytes, pos);
    if (pcr27MHz >= 0) {
      this.closeAtPcr(pcr27MHz, (bytes[pos + 5] & 0x80) !== 0);
      return true;
    }
    if (this.segmentPackets >= MAX_SEGMENT_PACKETS) {
      this.closeAtLastRate();
      return true;
    }
    return false;
  }

  /** Closes the segment at the end of the file: the packets after the last PCR continue at the last rate; the next PCR re-anchors. */
  closeAtEnd(): void {
    this.closeAtLastRate();
  }

  /** Due time (stream milliseconds) of packet i of the closed segment. */
  dueMs(index: number): number {
    return this.startMs + (index + 1) * this.stepMs;
  }

  clear(): void {
    this.segmentPackets = 0;
  }

  /**
   * ISO 13818-1 2.4.3.4-5: the PCR of a packet of the PCR PID, or -1. Takes the
   * PCR PID from the first packet with a PCR.
   */
  private pcrOf(bytes: Uint8Array, pos: number): number {
    // adaptation_field_control with an adaptation field, adaptation_field_length >= 7, PCR_flag.
    if (bytes[pos] !== TS_SYNC_BYTE || (bytes[pos + 3] & 0x20) === 0 || bytes[pos + 4] < 7 || (bytes[pos + 5] & 0x10) === 0) return -1;
    const pid = ((bytes[pos + 1] & 0x1f) << 8) | bytes[pos + 2];
    if (this.pcrPid < 0) this.pcrPid = pid;
    else if (pid !== this.pcrPid) return -1;
    return readPcr27MHz(bytes, pos + 6);
  }

  private closeAtPcr(pcr27MHz: number, discontinuity: boolean): void {
    const count = this.segmentPackets;
    const previous = this.lastPcr27MHz;
    this.lastPcr27MHz = pcr27MHz;
    this.startMs = this.anchorMs;
    // The packets before the first PCR go at once: there is no rate to pace them by yet.
    if (previous < 0) {
      this.stepMs = 0;
      return;
    }
    const stepMs = pcrDelta27MHz(previous, pcr27MHz) / PCR_TICKS_PER_MS;
    if (discontinuity || this.reanchor || stepMs <= 0 || (stepMs > MAX_PCR_STEP_MS && !this.explainedByRate(stepMs, count))) {
      this.reanchor = false;
      this.stepMs = Number.isNaN(this.msPerPacket) ? 0 : this.msPerPacket;
    } else {
      this.stepMs = stepMs / count;
      this.msPerPacket = this.stepMs;
    }
    this.anchorMs += count * this.stepMs;
  }

  /** A step beyond MAX_PCR_STEP_MS that is still time: see MAX_SPARSE_PCR_STEP_MS. */
  private explainedByRate(stepMs: number, packets: number): boolean {
    if (stepMs > MAX_SPARSE_PCR_STEP_MS) return false;
    if (Number.isNaN(this.msPerPacket)) return true;
    const expectedMs = packets * this.msPerPacket;
    return stepMs >= expectedMs / 2 && stepMs <= expectedMs * 2;
  }

  private closeAtLastRate(): void {
    this.startMs = this.anchorMs;
    this.stepMs = Number.isNaN(this.msPerPacket) ? 0 : this.msPerPacket;
    this.anchorMs += this.segmentPackets * this.stepMs;
    this.reanchor = true;
  }

  private grow(): void {
    const grown = new Uint8Array(Math.min(this.segment.length * 2, MAX_SEGMENT_PACKETS * TS_PACKET_SIZE));
    grown.set(this.segment);
    this.segment = grown;
  }
}
