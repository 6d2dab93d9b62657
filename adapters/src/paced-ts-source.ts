/**
 * A live source made of a transport stream that is not live: a file
 * (`file:///path.ts`, looped) or a generated stream (the streaming module's
 * demo). Its packets arrive as a live encoder would send them: paced by the
 * stream's own PCR, seven 188-byte packets to a chunk, by the same replay
 * that sends files to UDP (replay.ts), but into a queue instead of a socket.
 * So a file plays in a browser, is recorded and is measured exactly as the
 * same file replayed to a UDP source would be, without a network.
 */
import { fileURLToPath } from 'node:url';
import { TS_PACKET_SIZE } from '@klvscope/core';
import { AdapterError } from './adapter-error.js';
import { epochNow } from './epoch-clock.js';
import { fileSize, readFileChunks } from './file.js';
import type { LiveChunk, LiveSource, LiveSourceEvent, LiveSourceStats } from './live-source.js';
import { packetLayoutOf, Replay, type DatagramOutput, type PacketInput } from './replay.js';

/** Seven packets a chunk, as a UDP datagram of a live feed carries them. */
const PACKETS_PER_CHUNK = 7;
/** Chunks delivered but not yet taken by the consumer, at most (about 1.2 MB): then the pacing waits. */
const MAX_QUEUED_CHUNKS = 1024;
/**
 * Late chunks delivered in a row before the event loop gets a turn. A late
 * chunk is delivered at once, and the replay and the consumer then pass
 * chunks to each other in microtasks only: on a machine too busy to keep up,
 * that never ends, and timers, sockets and the other services starve (the
 * soak's service froze and ran out of memory so).
 */
const LATE_CHUNKS_BETWEEN_TURNS = 16;

export interface PacedTsSourceOptions {
  /** Starts again at the end, the clock running on (default false). */
  loop?: boolean;
}

/** `file:///path.ts`: the file, paced by its PCR and looped. Errors: ERR_SOURCE_URL_INVALID, the file errors of file.ts, ERR_NOT_TRANSPORT_STREAM. */
export async function openFileSource(url: string): Promise<LiveSource> {
  let path: string;
  try {
    path = fileURLToPath(url);
  } catch (cause) {
    throw new AdapterError('ERR_SOURCE_URL_INVALID', `'${url}' is not a file URL: use file:///absolute/path.ts (${(cause as Error).message})`, { url });
  }
  const totalBytes = await fileSize(path);
  const layout = await packetLayoutOf(path, totalBytes);
  // Each pass follows on from the one before, as replay --loop's do (loop-continuity.ts): a player or transcoder sees one stream that never goes back in time, KLV time included.
  return openPacedTsSource(url, { name: path, totalBytes, layout, chunks: (signal) => readFileChunks(path, { signal }) }, { loop: true });
}

/** A live source over any packet input (one pass of it per loop). The pacing starts at once; a replay error (no PCR) ends the iteration with that error. */
export function openPacedTsSource(url: string, input: PacketInput, options: PacedTsSourceOptions = {}): LiveSource {
  return new PacedTsSource(url, input, options);
}

class PacedTsSource implements LiveSource, DatagramOutput {
  readonly format = 'ts' as const;
  onEvent: ((event: LiveSourceEvent) => void) | null = null;
  readonly buffer = new Uint8Array(PACKETS_PER_CHUNK * TS_PACKET_SIZE);
  datagrams = 0;
  bytes = 0;
  readonly sendErrors = 0;
  readonly lastSendError = null;
  maxLatenessMs = 0;

  private readonly queue: LiveChunk[] = [];
  private readonly abort = new AbortController();
  private readonly finished: Promise<void>;
  private failure: Error | null = null;
  private ended = false;
  /** The consumer waiting for a chunk, or the replay waiting for room in the queue. */
  private wakeConsumer: (() => void) | null = null;
  private wakeProducer: (() => void) | null = null;
  private lastChunkAt: number | null = null;
  private lateInARow = 0;

  constructor(
    readonly url: string,
    input: PacketInput,
    options: PacedTsSourceOptions,
  ) {
    // A looped input is made continuous by the replay (loop-continuity.ts), as replay --loop is.
    const replay = new Replay(input, this, { speed: 1, loop: options.loop ?? false, signal: this.abort.signal, packetsPerDatagram: PACKETS_PER_CHUNK });
    this.finished = replay.run().then(
      () => this.end(null),
      (error: unknown) => this.end(error),
    );
  }

  send(length: number, dueMs: number): Promise<void> | null {
    const chunk = this.buffer.slice(0, length);
    const waitMs = dueMs - performance.now();
    if (waitMs > 0) {
      this.lateInARow = 0;
      return delay(waitMs).then(() => this.deliver(chunk, dueMs) ?? undefined);
    }
    const full = this.deliver(chunk, dueMs);
    if (full !== null || ++this.lateInARow < LATE_CHUNKS_BETWEEN_TURNS) return full;
    this.lateInARow = 0;
    return new Promise((resolve) => setImmediate(resolve));
  }

  stats(): LiveSourceStats {
    return { chunks: this.datagrams, bytes: this.bytes, applicationLoss: 0, rtpGaps: 0, rtpLost: 0, socketDrops: 0, noiseBytes: 0, rtp: false, lastChunkAt: this.lastChunkAt };
  }

  async close(): Promise<void> {
    this.abort.abort();
    this.wakeProducer?.();
    await this.finished;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<LiveChunk> {
    for (;;) {
      const chunk = this.queue.shift();
      if (chunk !== undefined) {
        if (this.queue.length < MAX_QUEUED_CHUNKS) this.takeWaker('producer')?.();
        yield chunk;
        continue;
      }
      if (this.ended) break;
      await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
    }
    if (this.failure !== null) throw this.failure;
  }

  private deliver(bytes: Uint8Array, dueMs: number): Promise<void> | null {
    if (this.abort.signal.aborted) return null;
    const latenessMs = performance.now() - dueMs;
    if (latenessMs > this.maxLatenessMs) this.maxLatenessMs = latenessMs;
    const receivedAt = epochNow();
    this.queue.push({ bytes, receivedAt });
    this.lastChunkAt = receivedAt;
    this.datagrams++;
    this.bytes += bytes.length;
    this.takeWaker('consumer')?.();
    if (this.queue.length < MAX_QUEUED_CHUNKS) return null;
    return new Promise((resolve) => (this.wakeProducer = resolve));
  }

  private end(error: unknown): void {
    // An abort by close() is the normal end, not a failure.
    if (error !== null && !this.abort.signal.aborted) this.failure = error instanceof Error ? error : new Error('the paced source failed', { cause: error });
    this.ended = true;
    this.takeWaker('consumer')?.();
  }

  private takeWaker(which: 'consumer' | 'producer'): (() => void) | null {
    const waker = which === 'consumer' ? this.wakeConsumer : this.wakeProducer;
    if (which === 'consumer') this.wakeConsumer = null;
    else this.wakeProducer = null;
    return waker;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
