/**
 * Replay: sends a transport stream file to a UDP destination (unicast or a
 * multicast group; udp-destination-url.ts) the way a live encoder would,
 * paced by the file's own PCR (pcr-schedule.ts), `packetsPerDatagram`
 * 188-byte packets per datagram (192 and 204-byte files lose their extra
 * bytes), optionally wrapped in RTP (RFC 2250). A datagram is due when its
 * last packet is; due times map to the wall clock as
 * `start + streamTime / speed`, so pacing never drifts however late a
 * single datagram goes.
 *
 * Memory stays bounded: the file is read in chunks, packets wait only from
 * one PCR to the next (at most 16 MiB), and at most 256 datagrams are in
 * flight (paced-datagram-sender.ts).
 */
import { randomInt } from 'node:crypto';
import { detectPacketLayout, type PacketLayout, TS_PACKET_SIZE } from '@klvscope/core';
import { AdapterError } from './adapter-error.js';
import { fileSize, readFileChunks, readFileHead } from './file.js';
import { continuousPass, LoopContinuity } from './loop-continuity.js';
import { PacedDatagramSender } from './paced-datagram-sender.js';
import { MAX_SEGMENT_PACKETS, PcrSchedule } from './pcr-schedule.js';
import { RTP_CLOCK_HZ, RTP_HEADER_SIZE, writeRtpHeader } from './rtp.js';
import { parseUdpDestinationUrl } from './udp-destination-url.js';

export interface ReplayOptions {
  /** 1 (default) is real time, 2 twice as fast; 0 or Infinity as fast as possible. */
  speed?: number;
  /**
   * Starts again at the end of the file, the clock running on smoothly, until aborted: each pass
   * after the first continues the one before (PCR, PTS, DTS, continuity counters and ST 0601 time
   * stamps carried on: loop-continuity.ts), so a receiver sees one continuous stream.
   */
  loop?: boolean;
  /** With `loop`: false sends every pass exactly as the file is (the clocks restart at each pass). Default true. */
  continuous?: boolean;
  /** Wraps each datagram in RTP: payload type 33, 90 kHz timestamps of the due time, consecutive sequence numbers. */
  rtp?: boolean;
  /** 188-byte packets per datagram (default 7: 1316 bytes, within a 1500-byte Ethernet MTU). */
  packetsPerDatagram?: number;
  /** Stops the replay: it resolves with the stats so far, `aborted` set. */
  signal?: AbortSignal;
  /** Called about four times a second, and once at the end. */
  onProgress?: (progress: ReplayProgress) => void;
}

export interface ReplayStats {
  /** Datagrams sent (not counting those the system refused). */
  datagrams: number;
  /** 188-byte transport packets in them. */
  packets: number;
  /** UDP payload bytes sent, RTP headers included. */
  bytes: number;
  /** Wall-clock time of the replay, from its first datagram. */
  durationMs: number;
  /** Times the file started over (loop). */
  loops: number;
  /** Datagrams the system refused to send (counted; the replay goes on). */
  sendErrors: number;
  /** The message of the last send error, or null. */
  lastSendError: string | null;
  /** How much later than due the latest datagram went (0 at unlimited speed). */
  maxLatenessMs: number;
  aborted: boolean;
}

export interface ReplayProgress extends ReplayStats {
  /** Bytes of the file read in the current pass, of `fileBytes`. */
  fileOffset: number;
  fileBytes: number;
}

const DEFAULT_PACKETS_PER_DATAGRAM = 7;
/** The most 188-byte packets an IPv4 UDP datagram holds (65507 bytes) with an RTP header. */
export const MAX_PACKETS_PER_DATAGRAM = Math.floor((65_507 - RTP_HEADER_SIZE) / TS_PACKET_SIZE);

const PROGRESS_INTERVAL_MS = 250;
/** Enough of the file to find its packet size (detectPacketLayout wants a few packets in a row). */
const LAYOUT_PROBE_BYTES = 1024 * 1024;

/**
 * Sends the file at `path` to `destinationUrl` (`udp://HOST:PORT[?ttl=N&interface=ADDR]`).
 * Errors: AdapterError ERR_DESTINATION_URL_INVALID, ERR_FILE_* (see file.ts),
 * ERR_NOT_TRANSPORT_STREAM, ERR_NO_PCR (at a finite speed, no PCR in the
 * first 16 MiB), ERR_SOCKET (the socket could not be set up).
 */
export async function replayFile(path: string, destinationUrl: string, options: ReplayOptions = {}): Promise<ReplayStats> {
  const destination = parseUdpDestinationUrl(destinationUrl);
  const speed = options.speed ?? 1;
  if (Number.isNaN(speed) || speed < 0) throw new RangeError(`speed must be a positive number, 0 or Infinity, got ${speed}`);
  const packetsPerDatagram = options.packetsPerDatagram ?? DEFAULT_PACKETS_PER_DATAGRAM;
  if (!Number.isInteger(packetsPerDatagram) || packetsPerDatagram < 1 || packetsPerDatagram > MAX_PACKETS_PER_DATAGRAM) {
    throw new RangeError(`packetsPerDatagram must be an integer from 1 to ${MAX_PACKETS_PER_DATAGRAM}, got ${packetsPerDatagram}`);
  }
  options.signal?.throwIfAborted();
  const fileBytes = await fileSize(path);
  const layout = await packetLayoutOf(path, fileBytes);
  const headerBytes = options.rtp ? RTP_HEADER_SIZE : 0;
  const sender = await PacedDatagramSender.open(destinationUrl, destination, headerBytes + packetsPerDatagram * TS_PACKET_SIZE, options.signal);
  try {
    const input: PacketInput = { name: path, totalBytes: fileBytes, layout, chunks: (signal) => readFileChunks(path, { signal }) };
    return await new Replay(input, sender, { ...options, speed }).run();
  } finally {
    await sender.close();
  }
}

/** The packets a replay sends: read again from the start for every pass of a loop. */
export interface PacketInput {
  /** Names the input in error messages: a path. */
  name: string;
  /** Bytes in one pass, for progress; Infinity for an endless input. */
  totalBytes: number;
  layout: PacketLayout;
  chunks(signal: AbortSignal | undefined): AsyncIterable<{ offset: number; bytes: Uint8Array }> | Iterable<{ offset: number; bytes: Uint8Array }>;
}

/** Where a replay's datagrams go, each when due: a UDP socket (PacedDatagramSender), or a live source's queue (paced-ts-source.ts). */
export interface DatagramOutput {
  /** The buffer the next datagram is written into (see PacedDatagramSender.buffer). */
  readonly buffer: Uint8Array;
  /** Sends the first `length` bytes of `buffer` at `dueMs` (performance.now() clock); a promise to wait for before writing the next, or null. */
  send(length: number, dueMs: number): Promise<void> | null;
  readonly datagrams: number;
  readonly bytes: number;
  readonly sendErrors: number;
  readonly lastSendError: string | null;
  readonly maxLatenessMs: number;
}

export async function packetLayoutOf(path: string, fileBytes: number): Promise<PacketLayout> {
  const head = await readFileHead(path, LAYOUT_PROBE_BYTES);
  const layout = detectPacketLayout(head, 0, head.length, head.length >= fileBytes);
  if (layout) return layout;
  throw new AdapterError('ERR_NOT_TRANSPORT_STREAM', `${path}: no MPEG-TS packets of 188, 192 or 204 bytes in its first ${Math.min(fileBytes, LAYOUT_PROBE_BYTES)} bytes`, { path });
}

/** One replay's state: the packet cursor over the input, the schedule, the datagram being filled, the counters. */
export class Replay {
  private readonly schedule = new PcrSchedule();
  private readonly paced: boolean;
  private readonly headerBytes: number;
  private readonly datagramBytes: number;
  private readonly signal: AbortSignal | undefined;
  /** A packet split between two chunks of the file, as far as it came. */
  private readonly carry = new Uint8Array(TS_PACKET_SIZE);
  private carried = 0;
  /** Bytes to pass over before the next packet: the prefix of the first, then the extra bytes of 192/204-byte packets. */
  private skip = 0;
  /** Bytes written into the sender's buffer for the datagram being filled. */
  private fill: number;
  private lastDueStreamMs = 0;
  /** performance.now() when stream time 0 is due: set by the first datagram, so reading the file first does not make it late. */
  private startMs = NaN;
  private fileOffset = 0;
  private loops = 0;
  private aborted = false;
  private lastProgressAt = 0;
  private sequenceNumber = randomInt(0x10000);
  private readonly rtpTimestampBase = randomInt(2 ** 32);
  private readonly ssrc = randomInt(2 ** 32);

  private readonly speed: number;

  private readonly layout: PacketLayout;
  private readonly continuity: LoopContinuity | null;

  constructor(
    private readonly input: PacketInput,
    private readonly sender: DatagramOutput,
    private readonly options: ReplayOptions & { speed: number },
  ) {
    this.layout = input.layout;
    this.speed = options.speed;
    this.paced = this.speed > 0 && Number.isFinite(this.speed);
    this.headerBytes = options.rtp ? RTP_HEADER_SIZE : 0;
    // The sender's buffers were sized for one datagram (replayFile).
    this.datagramBytes = sender.buffer.length;
    this.fill = this.headerBytes;
    this.signal = options.signal;
    this.continuity = options.loop && options.continuous !== false ? new LoopContinuity() : null;
  }

  async run(): Promise<ReplayStats> {
    for (;;) {
      await this.pass();
      if (this.aborted) break;
      this.schedule.closeAtEnd();
      this.requirePcr();
      await this.sendSegment();
      if (!this.options.loop || this.aborted) break;
      this.loops++;
      this.continuity?.startPass();
    }
    if (!this.aborted && this.fill > this.headerBytes) await this.sendDatagram(this.lastDueStreamMs);
    const stats = this.stats();
    this.options.onProgress?.({ ...stats, fileOffset: this.fileOffset, fileBytes: this.input.totalBytes });
    return stats;
  }

  /** Reads the file once, sending each segment as its closing PCR arrives. */
  private async pass(): Promise<void> {
    this.skip = this.layout.firstSync;
    this.carried = 0;
    try {
      const chunks = this.input.chunks(this.signal);
      for await (const chunk of this.continuity ? continuousPass(chunks, this.layout, this.continuity) : chunks) {
        this.fileOffset = chunk.offset + chunk.bytes.length;
        await this.consume(chunk.bytes);
        if (this.aborted) return;
      }
    } catch (error) {
      if (!this.signal?.aborted) throw error;
    }
    if (this.signal?.aborted) this.aborted = true;
  }

  /** Takes the packets of one chunk of the file into the schedule. */
  private async consume(bytes: Uint8Array): Promise<void> {
    const end = bytes.length;
    const extraBytes = this.layout.size - TS_PACKET_SIZE;
    let pos = 0;
    while (pos < end) {
      if (this.skip > 0) {
        const skipped = Math.min(this.skip, end - pos);
        this.skip -= skipped;
        pos += skipped;
        continue;
      }
      let closed: boolean;
      if (this.carried > 0 || end - pos < TS_PACKET_SIZE) {
        const taken = Math.min(TS_PACKET_SIZE - this.carried, end - pos);
        this.carry.set(bytes.subarray(pos, pos + taken), this.carried);
        this.carried += taken;
        pos += taken;
        if (this.carried < TS_PACKET_SIZE) return;
        this.carried = 0;
        closed = this.schedule.add(this.carry, 0);
      } else {
        closed = this.schedule.add(bytes, pos);
        pos += TS_PACKET_SIZE;
      }
      this.skip = extraBytes;
      if (closed) {
        this.requirePcr();
        await this.sendSegment();
        if (this.aborted) return;
      }
    }
  }

  /** A file without PCR cannot be paced: say so rather than send it at some made-up rate. */
  private requirePcr(): void {
    if (this.paced && this.schedule.pcrPid < 0) {
      throw new AdapterError(
        'ERR_NO_PCR',
        `${this.input.name}: no PCR in the first ${Math.min(this.input.totalBytes, MAX_SEGMENT_PACKETS * this.layout.size)} bytes to pace the replay by; replay it at speed 0 (as fast as possible)`,
        { path: this.input.name },
      );
    }
  }

  /** Sends the packets of the closed segment, `packetsPerDatagram` to a datagram, each datagram when its last packet is due. */
  private async sendSegment(): Promise<void> {
    const { schedule } = this;
    const count = schedule.segmentPackets;
    let index = 0;
    while (index < count && !this.aborted) {
      const taken = Math.min(count - index, (this.datagramBytes - this.fill) / TS_PACKET_SIZE);
      this.sender.buffer.set(schedule.segment.subarray(index * TS_PACKET_SIZE, (index + taken) * TS_PACKET_SIZE), this.fill);
      this.fill += taken * TS_PACKET_SIZE;
      index += taken;
      this.lastDueStreamMs = schedule.dueMs(index - 1);
      if (this.fill < this.datagramBytes) continue;
      const wait = this.sendDatagram(this.lastDueStreamMs);
      if (wait) await wait;
    }
    schedule.clear();
  }

  private sendDatagram(dueStreamMs: number): Promise<void> | null {
    if (Number.isNaN(this.startMs)) this.startMs = performance.now() - dueStreamMs / (this.paced ? this.speed : Infinity);
    const dueMs = this.paced ? this.startMs + dueStreamMs / this.speed : -Infinity;
    if (this.headerBytes > 0) {
      const sentAtMs = (this.paced ? dueMs : performance.now()) - this.startMs;
      writeRtpHeader(this.sender.buffer, {
        sequenceNumber: this.sequenceNumber++,
        timestamp: this.rtpTimestampBase + Math.round((sentAtMs * RTP_CLOCK_HZ) / 1000),
        ssrc: this.ssrc,
      });
    }
    const wait = this.sender.send(this.fill, dueMs);
    this.fill = this.headerBytes;
    if (this.signal?.aborted) this.aborted = true;
    if (this.options.onProgress) this.reportProgress();
    return wait && wait.then(() => void (this.aborted ||= this.signal?.aborted === true));
  }

  private reportProgress(): void {
    const now = performance.now();
    if (now - this.lastProgressAt < PROGRESS_INTERVAL_MS) return;
    this.lastProgressAt = now;
    this.options.onProgress?.({ ...this.stats(), fileOffset: this.fileOffset, fileBytes: this.input.totalBytes });
  }

  private stats(): ReplayStats {
    const { sender } = this;
    return {
      datagrams: sender.datagrams,
      packets: (sender.bytes - sender.datagrams * this.headerBytes) / TS_PACKET_SIZE,
      bytes: sender.bytes,
      durationMs: Number.isNaN(this.startMs) ? 0 : performance.now() - this.startMs,
      loops: this.loops,
      sendErrors: sender.sendErrors,
      lastSendError: sender.lastSendError,
      maxLatenessMs: sender.maxLatenessMs,
      aborted: this.aborted,
    };
  }
}
