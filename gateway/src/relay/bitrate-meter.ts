/**
 * A channel's bitrates: bytes in and out counted as they pass, turned into
 * one reading per second (the input, each output, and the input per PID),
 * with the last HISTORY_SECONDS readings kept. Counting a datagram costs a
 * few additions per TS packet (its PID), no allocation.
 */
import { PID_COUNT, TS_PACKET_SIZE, TS_SYNC_BYTE } from '@klvscope/core';

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
}

export class BitrateMeter {
  private inputBytes = 0;
  private readonly outputBytes: number[];
  /** Per output, since the meter was made (kept across stops as the readings are). */
  readonly outputSends: OutputSends[];
  private readonly pidPackets = new Uint32Array(PID_COUNT);
  private readonly seenPids: number[] = [];
  private history: BitrateReading[] = [];
  /** The last complete second. */
  latest: { reading: BitrateReading; outputs: number[]; pids: PidBitrate[] } | null = null;

  constructor(readonly outputCount: number) {
    this.outputBytes = new Array<number>(outputCount).fill(0);
    this.outputSends = Array.from({ length: outputCount }, () => ({ sent: 0, refused: 0 }));
  }

  input(bytes: Uint8Array): void {
    this.inputBytes += bytes.length;
    const packets = this.pidPackets;
    for (let at = 0; at + TS_PACKET_SIZE <= bytes.length; at += TS_PACKET_SIZE) {
      if (bytes[at] !== TS_SYNC_BYTE) continue;
      const pid = ((bytes[at + 1] & 0x1f) << 8) | bytes[at + 2];
      if (packets[pid]++ === 0) this.seenPids.push(pid);
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
    const pids = this.seenPids.sort((a, b) => a - b).map((pid) => ({ pid, bitrate: perSecond(this.pidPackets[pid] * TS_PACKET_SIZE) }));
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
