/**
 * What every live byte source (UDP, multicast, serial) gives the live
 * session: chunks in arrival order, each stamped with its arrival time, plus
 * the source's own events (losses, noise) and counters. A live source never
 * loses bytes silently: whatever it drops, and whatever the network dropped
 * that it can see (RTP sequence gaps), is an event and a counter.
 */

/** A chunk of a live source: the payload bytes as delivered to the pipeline. */
export interface LiveChunk {
  /** The payload (for UDP: one datagram, RTP header removed). Owned by the consumer: never reused by the source. */
  bytes: Uint8Array;
  /** When the bytes arrived, in milliseconds since the epoch with sub-millisecond precision (epoch-clock.ts: within a millisecond of the system clock). */
  receivedAt: number;
}

export type LiveSourceEventKind =
  /** Datagrams dropped inside the application because the consumer fell behind (the bounded queue was full). */
  | 'application-loss'
  /** A gap in RTP sequence numbers: packets lost (or reordered) before they reached us. */
  | 'rtp-gap'
  /** Datagrams the kernel dropped on our socket (receive buffer full), read from /proc/net/udp where available. */
  | 'socket-drops'
  /** Bytes that are neither TS packets nor KLV triplets (serial line noise), skipped. */
  | 'noise';

export interface LiveSourceEvent {
  kind: LiveSourceEventKind;
  /** How many datagrams (application-loss, socket-drops), RTP packets (rtp-gap) or bytes (noise). */
  count: number;
  /** Offset in the delivered byte stream where it happened: the offset of the next byte delivered after it. */
  offset: number;
  /** When it was noticed, as `LiveChunk.receivedAt`. */
  at: number;
  message: string;
}

export interface LiveSourceStats {
  /** Datagrams (or serial reads) received. */
  chunks: number;
  /** Payload bytes delivered to the consumer. */
  bytes: number;
  applicationLoss: number;
  rtpGaps: number;
  /** RTP packets missing according to the sequence numbers. */
  rtpLost: number;
  socketDrops: number;
  noiseBytes: number;
  /** Whether RTP was detected (UDP only). */
  rtp: boolean;
  /** receivedAt of the last chunk, or null before the first. */
  lastChunkAt: number | null;
  /** UDP only: `ADDRESS:PORT` of the last datagram's sender (a multicast group's source, say), or null before the first. */
  sender?: string | null;
  /** UDP only: the kernel receive buffer granted (`getRecvBufferSize()`; Linux counts its overhead, so twice what was set), which may be less than asked (net.core.rmem_max). */
  receiveBufferBytes?: number;
}

export interface LiveSource extends AsyncIterable<LiveChunk> {
  /** The source as given, e.g. `udp://239.1.1.1:5000` or `serial:///dev/ttyUSB0?baud=115200`. */
  readonly url: string;
  /** What the bytes are: MPEG-TS packets or a raw KLV byte stream. */
  readonly format: 'ts' | 'klv';
  stats(): LiveSourceStats;
  /** Source events as they happen (also counted in stats). One listener; set before iterating. */
  onEvent: ((event: LiveSourceEvent) => void) | null;
  /** Stops receiving and releases the socket or device; the iteration ends. Idempotent. */
  close(): Promise<void>;
}
