/**
 * A channel's bitrates: bytes in and out counted as they pass, turned into
 * one reading per second (the input, each output, and the input per PID),
 * with the last HISTORY_SECONDS readings kept; per PID also its packets and
 * continuity errors since the channel started. Counting a datagram costs a
 * few operations per TS packet (its PID and counter), no allocation.
 */
import { NULL_PID, PID_COUNT, TS_PACKET_SIZE, TS_SYNC_BYTE } from '@klvscope/core';

/** Five minutes at one reading per second. */
export const HISTORY_SECONDS = 300;

export interface BitrateReading {
  /** The end of the second measured (ISO 8601). */
  time: string;
  /** Bits per second of UDP payload (TS bytes, RTP header excluded). */
  inputBitrate: number;
  /** Bits per second sent, all outputs together. */
  outputBitrate: number;
}

/** An output's sends since the channel's meter was made: datagrams the system took, and those it refused. */
export interface OutputSends {
  sent: number;
  refused: number;
}

export interface PidBitrate {
  pid: number;
  bitrate: number;
  /** Packets and continuity errors since the channel started. */
  packets: number;
  continuityErrors: number;
}

export class BitrateMeter {
  private inputBytes = 0;
  private readonly outputBytes: number[];
  /** Per output, since the meter was made (kept across stops as the readings are). */
  readonly outputSends: OutputSends[];
  private readonly pidPackets = new Uint32Array(PID_COUNT);
  private readonly seenPids: number[] = [];
  /** Since the channel started: packets, continuity errors, and each PID's last continuity_counter (-1: none yet). */
  private readonly pidTotals = new Float64Array(PID_COUNT);
  private readonly pidCcErrors = new Float64Array(PID_COUNT);
  private readonly lastCc = new Int8Array(PID_COUNT).fill(-1);
  private history: BitrateReading[] = [];
  /** The last complete second. */
  latest: { reading: BitrateReading; outputs: number[]; pids: PidBitrate[] } | null = null;

  constructor(readonly outputCount: number) {
    this.outputBytes = new Array<number>(outputCount).fill(0);
    this.outputSends = Array.from({ length: outputCount }, () => ({ sent: 0, refused: 0 }));
  }

  /** A new input (the channel started): totals from zero, no counter to continue. */
  restartInput(): void {
    this.pidTotals.fill(0);
    this.pidCcErrors.fill(0);
    this.lastCc.fill(-1);
  }

  input(bytes: Uint8Array): void {
    this.inputBytes += bytes.length;
    const { pidPackets: packets, lastCc } = this;
    for (let at = 0; at + TS_PACKET_SIZE <= bytes.length; at += TS_PACKET_SIZE) {
      if (bytes[at] !== TS_SYNC_BYTE) continue;
      const pid = ((bytes[at + 1] & 0x1f) << 8) | bytes[at + 2];
      if (packets[pid]++ === 0) this.seenPids.push(pid);
      this.pidTotals[pid]++;
      // ISO 13818-1 2.4.3.3: the counter steps with each packet carrying payload, stays without one; a packet may be sent twice (same counter). Null packets carry no meaningful counter.
      if (pid === NULL_PID) continue;
      const flags = bytes[at + 3];
      const cc = flags & 0x0f;
      const last = lastCc[pid];
      if (last >= 0 && cc !== last && ((flags & 0x10) === 0 || cc !== ((last + 1) & 0x0f))) this.pidCcErrors[pid]++;
      lastCc[pid] = cc;
    }
  }

  /** What an output's socket reported since the last call: bytes and datagrams the system took, sends it refused. */
  output(index: number, bytes: number, datagrams: number, refused: number): void {
    this.outputBytes[index] += bytes;
    this.outputSends[index].sent += datagrams;
    this.outputSends[index].refused += refused;
  }

  /** Closes the second that ended at `now` (ms since the epoch), lasting `elapsedMs`. */
  tick(now: number, elapsedMs: number): void {
    const perSecond = (bytes: number): number => Math.round((bytes * 8 * 1000) / elapsedMs);
    const outputs = this.outputBytes.map(perSecond);
    const pids = this.seenPids
      .sort((a, b) => a - b)
      .map((pid) => ({ pid, bitrate: perSecond(this.pidPackets[pid] * TS_PACKET_SIZE), packets: this.pidTotals[pid], continuityErrors: this.pidCcErrors[pid] }));
    for (const pid of this.seenPids) this.pidPackets[pid] = 0;
    this.seenPids.length = 0;
    const reading = { time: new Date(now).toISOString(), inputBitrate: perSecond(this.inputBytes), outputBitrate: outputs.reduce((a, b) => a + b, 0) };
    this.inputBytes = 0;
    this.outputBytes.fill(0);
    this.push(reading);
    this.latest = { reading, outputs, pids };
  }

  /** A reading from outside (updateChannelBitrate): the latest, and in the history. */
  accept(reading: BitrateReading): void {
    this.push(reading);
    this.latest = { reading, outputs: new Array<number>(this.outputCount).fill(0), pids: [] };
  }

  private push(reading: BitrateReading): void {
    this.history.push(reading);
    if (this.history.length > HISTORY_SECONDS) this.history.splice(0, this.history.length - HISTORY_SECONDS);
  }

  readings(): readonly BitrateReading[] {
    return this.history;
  }

  clear(): void {
    this.history = [];
    this.latest = null;
  }
}
