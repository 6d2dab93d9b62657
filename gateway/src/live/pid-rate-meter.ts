/**
 * Packets per PID between two readings, for the live statistics (bitrate
 * per PID). Counted from the chunks as they arrive rather than from the
 * demuxer, which reports PID totals only at the end of a source. Live
 * chunks carry whole 188-byte packets (a datagram, a framed serial read);
 * bytes that do not start a packet are stepped over one at a time until a
 * sync byte is found again.
 */
import { PID_COUNT, TS_PACKET_SIZE, TS_SYNC_BYTE } from '@klvscope/core';

export interface PidRate {
  pid: number;
  packets: number;
  bitsPerSecond: number;
}

export class PidRateMeter {
  private readonly counts = new Uint32Array(PID_COUNT);
  private readonly seen: number[] = [];
  private packets = 0;

  push(bytes: Uint8Array): void {
    const end = bytes.length - TS_PACKET_SIZE;
    let p = 0;
    while (p <= end) {
      if (bytes[p] !== TS_SYNC_BYTE) {
        p++;
        continue;
      }
      const pid = ((bytes[p + 1] & 0x1f) << 8) | bytes[p + 2];
      if (this.counts[pid]++ === 0) this.seen.push(pid);
      this.packets++;
      p += TS_PACKET_SIZE;
    }
  }

  /** Packets per PID since the last reading, as rates over `seconds`, by PID; then starts a new interval. */
  read(seconds: number): { packets: number; pids: PidRate[] } {
    const pids = this.seen
      .sort((a, b) => a - b)
      .map((pid) => ({ pid, packets: this.counts[pid], bitsPerSecond: Math.round((this.counts[pid] * TS_PACKET_SIZE * 8) / seconds) }));
    for (const pid of this.seen) this.counts[pid] = 0;
    this.seen.length = 0;
    const packets = this.packets;
    this.packets = 0;
    return { packets, pids };
  }
}
