/**
 * The serial capture source: a device that sends KLV triplets (or TS
 * packets) over a serial line, read with the `serialport` package. Line
 * noise is skipped by the framers and reported as 'noise' events, so what
 * the consumer gets is whole packets back to back: for format 'klv' exactly
 * what core's KlvStreamDemuxer reads, for 'ts' what the TS demuxer reads.
 *
 * The serial port is read in flowing mode (a 'data' event per OS read), not
 * paced by the consumer: pausing it would let the driver's buffer overflow
 * and lose bytes where nobody sees it. A consumer that falls behind instead
 * finds whole reads dropped here, each one an 'application-loss' event.
 */
import type { SerialPort } from 'serialport';
import { importModule } from '@klvscope/core';
import { AdapterError } from './adapter-error.js';
import { epochNow } from './epoch-clock.js';
import { KlvFramer } from './klv-framer.js';
import type { LiveChunk, LiveSource, LiveSourceEvent, LiveSourceStats } from './live-source.js';
import type { FramedBytes, ResyncFramer } from './resync-framer.js';
import { parseSerialSourceUrl, type SerialSourceUrl } from './serial-source-url.js';
import { TsFramer } from './ts-framer.js';

/** Packet bytes held for a slow consumer: minutes of a 115200-baud line, a second or so of the fastest USB adapters. */
const DEFAULT_SERIAL_QUEUE_BYTES = 8 * 1024 * 1024;

export interface SerialSourceOptions {
  /** Closes the source; the iteration rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** Bytes of packets queued for the consumer before new reads are dropped (default 8 MiB). */
  maxQueuedBytes?: number;
}

/**
 * Opens the serial device a `serial:` URL names (see serial-source-url.ts)
 * and starts reading. Rejects with AdapterError ERR_SOURCE_URL_INVALID for a
 * bad URL, ERR_SERIAL_OPEN_FAILED (with the path and the OS message) when the
 * device cannot be opened; a device that fails or goes away later ends the
 * iteration with ERR_SERIAL_READ_FAILED, after the packets already received.
 */
export async function openSerialSource(url: string, options: SerialSourceOptions = {}): Promise<LiveSource> {
  const settings = parseSerialSourceUrl(url);
  const maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_SERIAL_QUEUE_BYTES;
  if (!Number.isSafeInteger(maxQueuedBytes) || maxQueuedBytes <= 0) throw new RangeError(`maxQueuedBytes must be a positive integer, got ${maxQueuedBytes}`);
  const { signal } = options;
  signal?.throwIfAborted();
  const framer =
    settings.format === 'klv' ? new KlvFramer({ maxValueBytes: settings.maxKlvLength, knownKeysOnly: settings.keys === 'known' }) : new TsFramer();
  const port = await openPort(settings);
  if (signal?.aborted) {
    await closePort(port);
    signal.throwIfAborted();
  }
  return new SerialSource(url, settings, port, framer, maxQueuedBytes, signal);
}

class SerialSource implements LiveSource {
  readonly format: 'klv' | 'ts';
  onEvent: ((event: LiveSourceEvent) => void) | null = null;

  private readonly counts = { chunks: 0, bytes: 0, applicationLoss: 0, noiseBytes: 0, lastChunkAt: null as number | null };
  private readonly queue: LiveChunk[] = [];
  private head = 0;
  private queuedBytes = 0;
  private receiving = true;
  /** Why the iteration ends with an error once the queue is drained (the device failed). */
  private failure: Error | null = null;
  private aborted = false;
  private wake: (() => void) | null = null;
  private iterated = false;
  private closing: Promise<void> | null = null;

  constructor(
    readonly url: string,
    private readonly settings: SerialSourceUrl,
    private readonly port: SerialPort,
    private readonly framer: ResyncFramer,
    private readonly maxQueuedBytes: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.format = settings.format;
    port.on('data', this.onData);
    port.on('error', this.onError);
    port.on('close', this.onPortClose);
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  stats(): LiveSourceStats {
    const { chunks, bytes, applicationLoss, noiseBytes, lastChunkAt } = this.counts;
    return { chunks, bytes, applicationLoss, rtpGaps: 0, rtpLost: 0, socketDrops: 0, noiseBytes, rtp: false, lastChunkAt };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stopReceiving(null);
      this.signal?.removeEventListener('abort', this.onAbort);
      await closePort(this.port);
    })();
    return this.closing;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<LiveChunk, void, undefined> {
    if (this.iterated) throw new Error(`${this.url} is already being read: a live source has one consumer`);
    this.iterated = true;
    try {
      for (;;) {
        if (this.aborted) this.signal?.throwIfAborted();
        if (this.head < this.queue.length) {
          yield this.shift();
          continue;
        }
        if (this.failure !== null) throw this.failure;
        if (!this.receiving) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      await this.close();
    }
  }

  private readonly onData = (data: Buffer): void => {
    const receivedAt = epochNow();
    this.counts.chunks++;
    this.counts.lastChunkAt = receivedAt;
    this.take(this.framer.push(data), receivedAt);
  };

  private readonly onError = (error: Error): void => {
    this.stopReceiving(new AdapterError('ERR_SERIAL_READ_FAILED', `reading serial device ${this.settings.path} failed: ${osReason(error)}`, { path: this.settings.path }, { cause: error }));
    void closePort(this.port);
  };

  /** The port closed without our asking: the device went away (a USB adapter unplugged). */
  private readonly onPortClose = (error?: Error | null): void => {
    if (!this.receiving) return;
    const why = error ? osReason(error) : 'the port closed';
    this.stopReceiving(new AdapterError('ERR_SERIAL_READ_FAILED', `serial device ${this.settings.path} went away: ${why}`, { path: this.settings.path }, { cause: error ?? undefined }));
  };

  private readonly onAbort = (): void => {
    this.aborted = true;
    void this.close();
    this.wakeConsumer();
  };

  /** Ends reading: what the framer still holds is delivered or reported, then the iteration ends (with `failure`, if any). */
  private stopReceiving(failure: Error | null): void {
    if (!this.receiving) return;
    this.receiving = false;
    this.failure = failure;
    this.port.off('data', this.onData);
    this.take(this.framer.flush(), epochNow());
    this.wakeConsumer();
  }

  /** Queues the packets of one read (or drops them all when the consumer is too far behind) and reports its noise. */
  private take(framed: FramedBytes, at: number): void {
    const { bytes, noise } = framed;
    // Offset in the delivered stream of the first byte of this read: every byte queued so far.
    const start = this.counts.bytes;
    const dropped = bytes.length > 0 && this.queuedBytes + bytes.length > this.maxQueuedBytes;
    if (bytes.length > 0 && !dropped) {
      this.queue.push({ bytes, receivedAt: at });
      this.queuedBytes += bytes.length;
      this.counts.bytes += bytes.length;
      this.wakeConsumer();
    }
    for (const run of noise) {
      this.counts.noiseBytes += run.count;
      const offset = dropped ? start : start + run.at;
      this.emit({ kind: 'noise', count: run.count, offset, at, message: `${run.count} bytes skipped: ${run.message}` });
    }
    if (dropped) {
      this.counts.applicationLoss++;
      const message = `consumer too slow: dropped a serial read of ${bytes.length} packet bytes (${this.queuedBytes} bytes queued, limit ${this.maxQueuedBytes})`;
      this.emit({ kind: 'application-loss', count: 1, offset: start, at, message });
    }
  }

  private emit(event: LiveSourceEvent): void {
    try {
      this.onEvent?.(event);
    } catch (thrown) {
      // Thrown from a port event handler it would be an uncaught exception: end the source with it instead.
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      if (this.receiving) {
        this.stopReceiving(error);
        void closePort(this.port);
      } else {
        this.failure ??= error;
      }
    }
  }

  private shift(): LiveChunk {
    const chunk = this.queue[this.head++];
    this.queuedBytes -= chunk.bytes.length;
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    } else if (this.head >= 1024) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    return chunk;
  }

  private wakeConsumer(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

async function openPort(settings: SerialSourceUrl): Promise<SerialPort> {
  const { path } = settings;
  let port: SerialPort;
  try {
    // Loaded on first use: the native binding is needed only by those who read a serial line.
    const { SerialPort: Port } = (await importModule('serialport')) as typeof import('serialport');
    port = new Port({ path, baudRate: settings.baudRate, dataBits: settings.dataBits, parity: settings.parity, stopBits: settings.stopBits, autoOpen: false });
  } catch (cause) {
    throw openFailed(path, cause);
  }
  await new Promise<void>((resolve, reject) => port.open((error) => (error ? reject(openFailed(path, error)) : resolve())));
  return port;
}

function closePort(port: SerialPort): Promise<void> {
  if (!port.isOpen) return Promise.resolve();
  // A close that fails (the device is already gone) leaves nothing to release.
  return new Promise((resolve) => port.close(() => resolve()));
}

function openFailed(path: string, cause: unknown): AdapterError {
  const reason = osReason(cause);
  return new AdapterError('ERR_SERIAL_OPEN_FAILED', `cannot open serial device ${path}: ${reason}`, { path, reason }, { cause });
}

/** The OS part of a serialport error ("Error: No such file or directory, cannot open /dev/x" gives "No such file or directory"). */
function osReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Error: /, '').replace(/, cannot open .*$/, '');
}
