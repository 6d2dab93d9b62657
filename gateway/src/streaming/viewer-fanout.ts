/**
 * Passes one transport stream on to every connected viewer (a WebSocket
 * each), so that each viewer can start decoding at once and none holds up
 * another:
 * - a new viewer starts at once at the latest video random access point: it
 *   gets a `hello` giving the PTS it starts at, the latest PAT and PMT
 *   packets, the bytes and KLV messages kept since that point (at most
 *   half of `maxBufferedBytes`: 4 MiB by default, 3 s at 10 Mb/s), then the stream as it comes (docs/streaming.md); with
 *   nothing kept, it waits for the next random access point;
 * - bytes and JSON messages go out in order, without waiting: a viewer whose
 *   unsent data passes `maxBufferedBytes` has stopped reading, and is
 *   dropped (its connection cut) rather than slowing the rest or growing memory.
 */
import { epochNow } from '@klvscope/adapters';
import type { StreamHelloMessage, StreamMessage } from '@klvscope/core';
import type { WebSocket } from 'ws';
import type { StreamAnalysis } from './stream-analysis.js';

const PACKET = 188;
const SYNC = 0x47;
const PAT_PID = 0;
/** A viewer that waited this long for a random access point starts at the next PES start anyway (a stream without RAI flags or keyframes). */
const MAX_WAIT_FOR_RANDOM_ACCESS_MS = 3_000;

/** What a new viewer gets first: the stream since the latest random access point, bytes and KLV messages in order. */
interface KeptStart {
  startPts90kHz: number | null;
  videoPid: number;
  /** The PAT and PMT packets as they were at the random access point. */
  pat: Uint8Array | null;
  pmt: Uint8Array | null;
  items: Array<Uint8Array | string>;
  bytes: number;
}

export interface FanoutOptions {
  /** Unsent bytes a viewer may have before it is dropped. */
  maxBufferedBytes: number;
  /** Fields of the hello that do not depend on the viewer. */
  hello: () => Omit<StreamHelloMessage, 'type' | 'startPts90kHz' | 'videoPid'>;
  /** Told, for each chunk passed on to at least one viewer, how long after its arrival it went (benchmarks). */
  onSent?: (latencyMs: number) => void;
}

interface Viewer {
  socket: WebSocket;
  started: boolean;
  connectedAt: number;
}

export class ViewerFanout {
  private readonly viewers = new Set<Viewer>();
  /** The latest PAT and PMT packets (copies), sent first to a viewer that starts. */
  private pat: Uint8Array | null = null;
  private pmt: Uint8Array | null = null;
  /** Since the latest random access point of the video; null before one, or once over MAX_KEPT_BYTES. */
  private kept: KeptStart | null = null;
  /** Viewers dropped for not reading, since start. */
  dropped = 0;

  constructor(
    private readonly analysis: () => StreamAnalysis,
    private readonly options: FanoutOptions,
  ) {}

  get count(): number {
    return this.viewers.size;
  }

  add(socket: WebSocket): void {
    const viewer: Viewer = { socket, started: false, connectedAt: performance.now() };
    this.viewers.add(viewer);
    socket.on('close', () => this.viewers.delete(viewer));
    socket.on('error', () => this.viewers.delete(viewer));
  }

  /** A new source run: every viewer waits for a random access point of the new stream (its clocks start again). */
  restart(): void {
    this.pat = null;
    this.pmt = null;
    this.kept = null;
    for (const viewer of this.viewers) {
      viewer.started = false;
      viewer.connectedAt = performance.now();
    }
  }

  /** Whole 188-byte packets, in order; `receivedAt` is their arrival (epoch ms, as LiveChunk's). */
  pushPackets(bytes: Uint8Array, receivedAt: number): void {
    const analysis = this.analysis();
    // The kept start first: it takes the tables as they were at its random access point.
    this.keepSinceRandomAccess(bytes, analysis);
    this.keepTables(bytes, analysis);
    if (this.viewers.size === 0) return;
    let waiting = false;
    let sent = false;
    for (const viewer of this.viewers) {
      if (viewer.started) sent = this.send(viewer, bytes) || sent;
      else waiting = true;
    }
    if (waiting) this.startWaiting(bytes, analysis);
    if (sent && this.options.onSent) this.options.onSent(epochNow() - receivedAt);
  }

  /** A JSON message to every viewer that has started. */
  pushMessage(message: StreamMessage): void {
    if (this.viewers.size === 0 && this.kept === null) return;
    const text = JSON.stringify(message);
    if (message.type === 'klv') this.keep(text, text.length);
    for (const viewer of this.viewers) if (viewer.started || message.type === 'status') this.send(viewer, text);
  }

  /** Closes every viewer's socket (the module stops). */
  closeAll(code: number, reason: string): void {
    for (const viewer of this.viewers) viewer.socket.close(code, reason);
    this.viewers.clear();
  }

  private keepTables(bytes: Uint8Array, analysis: StreamAnalysis): void {
    for (let pos = 0; pos + PACKET <= bytes.length; pos += PACKET) {
      if ((bytes[pos + 1] & 0x40) === 0) continue;
      const pid = ((bytes[pos + 1] & 0x1f) << 8) | bytes[pos + 2];
      if (pid === PAT_PID) this.pat = bytes.slice(pos, pos + PACKET);
      else if (pid === analysis.pmtPid) this.pmt = bytes.slice(pos, pos + PACKET);
    }
  }

  /** Keeps the stream from the latest random access point of the video on: a new viewer starts there at once. */
  private keepSinceRandomAccess(bytes: Uint8Array, analysis: StreamAnalysis): void {
    const videoPid = analysis.video?.pid ?? null;
    if (videoPid === null || !analysis.pmtSeen) return;
    let from = -1;
    for (let pos = 0; pos + PACKET <= bytes.length; pos += PACKET) {
      if ((bytes[pos + 1] & 0x40) === 0 || (((bytes[pos + 1] & 0x1f) << 8) | bytes[pos + 2]) !== videoPid) continue;
      if (isRandomAccessPoint(bytes, pos)) from = pos;
    }
    if (from >= 0) {
      // ISO 13818-1 2.4.3.3: the PAT and PMT a new viewer gets first must be the last ones before the kept packets, or their counters would go back.
      this.keepTables(bytes.subarray(0, from), analysis);
      const start = bytes.slice(from);
      this.kept = { startPts90kHz: ptsOfPesStart(bytes, from), videoPid, pat: this.pat, pmt: this.pmt, items: [start], bytes: start.length };
    } else {
      // A copy: the caller's chunk may be reused.
      this.keep(bytes.slice(), bytes.length);
    }
  }

  private keep(item: Uint8Array | string, length: number): void {
    if (this.kept === null) return;
    this.kept.items.push(item);
    this.kept.bytes += length;
    // Sent at once to a viewer that starts, it must leave room under the bound that drops a viewer that does not read.
    if (this.kept.bytes > this.options.maxBufferedBytes / 2) this.kept = null;
  }

  /** Starts the waiting viewers at the latest random access point, with what was kept since; false when nothing is kept. */
  private startFromKept(): boolean {
    const kept = this.kept;
    if (kept === null || kept.pat === null || kept.pmt === null) return false;
    for (const viewer of this.viewers) {
      if (viewer.started) continue;
      viewer.started = true;
      const hello: StreamHelloMessage = { type: 'hello', startPts90kHz: kept.startPts90kHz, videoPid: kept.videoPid, ...this.options.hello() };
      this.send(viewer, JSON.stringify(hello));
      this.send(viewer, kept.pat);
      this.send(viewer, kept.pmt);
      for (const item of kept.items) this.send(viewer, item);
    }
    return true;
  }

  private startWaiting(bytes: Uint8Array, analysis: StreamAnalysis): void {
    // The chunk in hand is the last kept item: it goes with the kept ones.
    if (this.startFromKept()) return;
    if (this.pat === null || this.pmt === null || !analysis.pmtSeen) return;
    const videoPid = analysis.video?.pid ?? null;
    const now = performance.now();
    for (let pos = 0; pos + PACKET <= bytes.length; pos += PACKET) {
      if (bytes[pos] !== SYNC || (bytes[pos + 1] & 0x40) === 0) continue;
      const pid = ((bytes[pos + 1] & 0x1f) << 8) | bytes[pos + 2];
      if (videoPid !== null && pid !== videoPid) continue;
      const randomAccess = videoPid === null || isRandomAccessPoint(bytes, pos);
      let startedAny = false;
      for (const viewer of this.viewers) {
        if (viewer.started || !(randomAccess || now - viewer.connectedAt > MAX_WAIT_FOR_RANDOM_ACCESS_MS)) continue;
        viewer.started = true;
        startedAny = true;
        const hello: StreamHelloMessage = { type: 'hello', startPts90kHz: videoPid === null ? null : ptsOfPesStart(bytes, pos), videoPid, ...this.options.hello() };
        this.send(viewer, JSON.stringify(hello));
        this.send(viewer, this.pat);
        this.send(viewer, this.pmt);
        this.send(viewer, bytes.subarray(pos));
      }
      if (startedAny) return;
    }
  }

  /** Sends unless the viewer is gone or dropped now; true when sent. */
  private send(viewer: Viewer, data: Uint8Array | string): boolean {
    const { socket } = viewer;
    if (socket.readyState !== socket.OPEN) return false;
    if (socket.bufferedAmount > this.options.maxBufferedBytes) {
      this.dropped++;
      this.viewers.delete(viewer);
      // A close handshake would queue behind the unread data: cut the connection.
      socket.terminate();
      return false;
    }
    socket.send(data, { binary: typeof data !== 'string' });
    return true;
  }
}

/**
 * A packet that starts a video PES at a random access point: the adaptation
 * field's random_access_indicator (ISO 13818-1 2.4.3.5), or, for muxers that
 * do not set it, an H.264 SPS NAL unit (ITU-T H.264 7.4.1.2.3: a coded video
 * sequence starts with one) or an MPEG-2 sequence header (ISO 13818-2
 * 6.2.2.1) in the packet's payload.
 */
export function isRandomAccessPoint(bytes: Uint8Array, pos: number): boolean {
  const afc = (bytes[pos + 3] >> 4) & 0x3;
  let payload = pos + 4;
  if (afc & 0x2) {
    const length = bytes[pos + 4];
    if (length > 0 && (bytes[pos + 5] & 0x40) !== 0) return true;
    payload += 1 + length;
  }
  if ((afc & 0x1) === 0) return false;
  const end = pos + PACKET;
  for (let i = payload; i + 3 < end; i++) {
    if (bytes[i] !== 0 || bytes[i + 1] !== 0 || bytes[i + 2] !== 1) continue;
    const code = bytes[i + 3];
    if ((code & 0x1f) === 7 && (code & 0x80) === 0) return true;
    if (code === 0xb3) return true;
  }
  return false;
}

/** The PTS of the PES that starts in this packet (ISO 13818-1 2.4.3.7), or null. */
export function ptsOfPesStart(bytes: Uint8Array, pos: number): number | null {
  const afc = (bytes[pos + 3] >> 4) & 0x3;
  const at = pos + 4 + (afc & 0x2 ? 1 + bytes[pos + 4] : 0);
  if (at + 14 > pos + PACKET || bytes[at] !== 0 || bytes[at + 1] !== 0 || bytes[at + 2] !== 1) return null;
  if ((bytes[at + 7] & 0x80) === 0) return null;
  const p = at + 9;
  // 33 bits in 5 bytes with marker bits: 3 + 15 + 15.
  return (((bytes[p] >> 1) & 0x07) * 2 ** 30) + ((bytes[p + 1] << 22) | ((bytes[p + 2] >> 1) << 15) | (bytes[p + 3] << 7) | (bytes[p + 4] >> 1));
}
