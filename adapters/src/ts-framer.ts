/**
 * Whole 188-byte MPEG-TS packets out of a serial byte stream with noise in
 * it, resynchronised on the sync byte 0x47 (ISO 13818-1 2.4.3.2: every
 * packet starts with it). Only 188: a serial capture device sends plain TS
 * packets (no M2TS time stamps, no Reed-Solomon bytes).
 *
 * A lone 0x47 proves nothing (it is a common payload byte), so a packet is
 * delivered once the byte after it is a sync byte too: each packet waits for
 * the first byte of the next. When that byte is not a sync byte:
 * - after noise (not locked), the 0x47 was noise: skip it;
 * - in a run of confirmed packets (locked), either noise follows a good
 *   packet, or noise began with a 0x47, or the packet lost a byte on the
 *   line. A sync byte inside it that the byte 188 further on confirms tells
 *   the last two apart: the stream goes on there. Otherwise the packet is
 *   kept and the noise after it skipped.
 * So a packet alone between two bursts of noise is noise: nothing confirms
 * it. At the end of the stream, where no next sync can come, a last whole
 * packet is accepted.
 */
import { ResyncFramer, type FrameSink, type FrameStop } from './resync-framer.js';
import { TS_PACKET_SIZE, TS_SYNC_BYTE } from '@klvscope/core';

const NOT_TS = 'bytes that are not TS packets (no 0x47 sync byte)';
const UNCONFIRMED = 'a sync byte not followed by another one 188 bytes later';
const REALIGNED = 'a broken packet (a sync byte 188 bytes on starts inside it)';

export class TsFramer extends ResyncFramer {
  /** The last packet was confirmed and nothing broke the run since. */
  private locked = false;

  /** The most bytes held between pushes: a packet and the next one that may realign the stream inside it. */
  override get maxPending(): number {
    return 2 * TS_PACKET_SIZE;
  }

  protected frame(b: Uint8Array, end: number, final: boolean, sink: FrameSink): FrameStop {
    let pos = 0;
    while (pos < end) {
      if (b[pos] !== TS_SYNC_BYTE) {
        this.locked = false;
        const found = b.subarray(pos + 1, end).indexOf(TS_SYNC_BYTE);
        const next = found < 0 ? end : pos + 1 + found;
        sink.noise(pos, next - pos, NOT_TS);
        pos = next;
        continue;
      }
      const packetEnd = pos + TS_PACKET_SIZE;
      if (packetEnd >= end) {
        if (!final) return { next: pos, need: TS_PACKET_SIZE + 1 };
        if (packetEnd > end) return { next: pos, need: 0 };
        sink.packet(pos, packetEnd);
        return { next: end, need: 0 };
      }
      if (b[packetEnd] === TS_SYNC_BYTE) {
        sink.packet(pos, packetEnd);
        this.locked = true;
        pos = packetEnd;
        continue;
      }
      if (!this.locked) {
        sink.noise(pos, 1, UNCONFIRMED);
        pos += 1;
        continue;
      }
      const realigned = realignment(b, pos, end, final);
      if (realigned === 'wait') return { next: pos, need: 0 };
      this.locked = false;
      if (realigned < 0) {
        sink.packet(pos, packetEnd);
        pos = packetEnd;
      } else {
        sink.noise(pos, realigned - pos, REALIGNED);
        pos = realigned;
      }
    }
    return { next: pos, need: 0 };
  }
}

/** The first sync byte inside the packet at `pos` that the byte 188 further on confirms; -1 for none, 'wait' when that byte has not arrived. */
function realignment(b: Uint8Array, pos: number, end: number, final: boolean): number | 'wait' {
  for (let q = pos + 1; q < pos + TS_PACKET_SIZE; q++) {
    if (b[q] !== TS_SYNC_BYTE) continue;
    if (q + TS_PACKET_SIZE < end) {
      if (b[q + TS_PACKET_SIZE] === TS_SYNC_BYTE) return q;
    } else if (!final) {
      return 'wait';
    }
  }
  return -1;
}
