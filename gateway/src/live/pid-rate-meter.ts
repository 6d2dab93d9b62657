/**
 * Packets per PID between two readings, for the live statistics (bitrate
 * per PID). Counted from the chunks as they arrive rather than from the
 * demuxer, which reports PID totals only at the end of a source. Live
 * chunks carry whole 188-byte packets (a datagram, a framed serial read);
 * bytes that do not start a packet are stepped over one at a time until a
 * sync byte is found again.
 *
 * A reading names at most MAX_PIDS_PER_READING PIDs, those with the most
 * packets; the others are summed into one entry of PID -2 (OTHER_PIDS, as
 * the findings past their limit). Noise read as packets reaches every PID:
 * under a broken feed a reading named a thousand PIDs or more, and the
 * session keeps 600 readings, stores them and sends them each second
 * (issue 35's flood: 655,000 objects, 40 MB of heap, in a few minutes).
 */
import { PID_COUNT, TS_PACKET_SIZE, TS_SYNC_BYTE } from '@klvscope/core';
import { OTHER_PIDS } from './finding-coalescer.js';

/** PIDs a reading names one by one: a real multiplex has a few, a large one a few dozen. */
export const MAX_PIDS_PER_READING = 64;

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

  /** Packets per PID since the last reading, as rates over `seconds`, by PID (OTHER_PIDS last); then starts a new interval. */
  read(seconds: number): { packets: number; pids: PidRate[] } {
    const rate = (pid: number, packets: number): PidRate => ({ pid, packets, bitsPerSecond: Math.round((packets * TS_PACKET_SIZE * 8) / seconds) });
    // The busiest first (the lower PID first among equals), so that the named ones are the stream's own.
    if (this.seen.length > MAX_PIDS_PER_READING) this.seen.sort((a, b) => this.counts[b] - this.counts[a] || a - b);
    const named = this.seen.slice(0, MAX_PIDS_PER_READING).sort((a, b) => a - b);
    const pids = named.map((pid) => rate(pid, this.counts[pid]));
    let others = 0;
    for (let i = MAX_PIDS_PER_READING; i < this.seen.length; i++) others += this.counts[this.seen[i]];
    if (others > 0) pids.push(rate(OTHER_PIDS, others));
    for (const pid of this.seen) this.counts[pid] = 0;
    this.seen.length = 0;
    const packets = this.packets;
    this.packets = 0;
    return { packets, pids };
  }
}
