/**
 * A video capture device as a live source: ffmpeg reads it (`-f v4l2 -i
 * /dev/video0` by default) and encodes H.264 into MPEG-TS on its stdout
 * (h264-encoder-args.ts), which the source hands over as whole 188-byte
 * packets. No KLV: a camera has none; the stream is for viewing and
 * recording.
 *
 * Any ffmpeg input format works: `format: 'lavfi', device:
 * 'testsrc=size=640x480:rate=25'` makes a test picture, paced like a camera
 * (`-re`), which is how the tests and demos run without a device.
 *
 * Backpressure instead of a queue: while the consumer is busy, ffmpeg's
 * pipe fills and ffmpeg waits, and the device driver drops frames, as it
 * does for any slow reader.
 */
import { AdapterError } from './adapter-error.js';
import { epochNow } from './epoch-clock.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { ffmpegNotFound, findFfmpeg } from './find-ffmpeg.js';
import { h264EncoderArgs, type H264EncoderOptions } from './h264-encoder-args.js';
import type { LiveChunk, LiveSource, LiveSourceEvent, LiveSourceStats } from './live-source.js';
import { TsFramer } from './ts-framer.js';

export interface CaptureSourceOptions extends H264EncoderOptions {
  /** The device (`/dev/video0`), or what the input format takes (lavfi: a filter graph such as `testsrc=size=640x480:rate=25`). */
  device: string;
  /** ffmpeg's input format (default 'v4l2'; 'lavfi' for a test picture). */
  format?: string;
  /** Capture size asked of the device, e.g. '1280x720' (`-video_size`); default: the device's. */
  videoSize?: string;
  /** Frame rate asked of the device (`-framerate`); default: the device's. */
  frameRate?: number;
  /** The ffmpeg to run (default: findFfmpeg()). */
  ffmpegPath?: string;
  /** How long to wait for the first bytes before giving up on the device (default 10 000 ms). */
  openTimeoutMs?: number;
  /** How long `close` lets ffmpeg stop before killing it (default 2000 ms). */
  closeTimeoutMs?: number;
}

const DONE: IteratorResult<LiveChunk> = { done: true, value: undefined };

/**
 * Starts ffmpeg on the device and resolves once its first TS bytes are out. Rejects with
 * AdapterError ERR_FFMPEG_NOT_FOUND (no ffmpeg: says what to install) or ERR_CAPTURE_OPEN_FAILED
 * (the device cannot be opened or gives nothing: ffmpeg's words in the message).
 */
export async function openCaptureSource(options: CaptureSourceOptions): Promise<LiveSource & { readonly pid: number | undefined }> {
  const format = options.format ?? 'v4l2';
  const ffmpegPath = options.ffmpegPath ?? findFfmpeg();
  if (ffmpegPath === null) throw ffmpegNotFound('Video capture');
  const args = [
    ...(format === 'lavfi' ? ['-re'] : []),
    '-f', format,
    ...(options.videoSize ? ['-video_size', options.videoSize] : []),
    ...(options.frameRate ? ['-framerate', String(options.frameRate)] : []),
    '-i', options.device,
    '-map', '0:v:0',
    ...h264EncoderArgs(options),
    '-flush_packets', '1',
    '-f', 'mpegts', 'pipe:1',
  ];
  const url = `${format}:${options.device}`;
  const what = `capture of ${url}`;
  const ffmpeg = new FfmpegProcess(ffmpegPath, args, { stdin: false, what });
  const source = new CaptureSource(url, ffmpeg, options.closeTimeoutMs ?? 2000);
  const failure = await source.waitForFirstBytes(options.openTimeoutMs ?? 10_000);
  if (failure === null) return source;
  await source.close();
  if (failure.code === 'ERR_FFMPEG_NOT_FOUND') throw failure;
  const why = failure.message.startsWith(`${what}: `) ? failure.message.slice(what.length + 2) : failure.message;
  throw new AdapterError('ERR_CAPTURE_OPEN_FAILED', `cannot open capture device ${options.device} (${format}): ${why}`, { device: options.device, format, ...failure.details }, { cause: failure });
}

class CaptureSource implements LiveSource {
  readonly format = 'ts' as const;
  onEvent: ((event: LiveSourceEvent) => void) | null = null;

  private readonly reader: AsyncIterator<Buffer>;
  private readonly framer = new TsFramer();
  /** Packets read while opening, handed out first. */
  private first: Uint8Array | null = null;
  private closing: Promise<void> | null = null;
  private ended = false;
  private readonly counters = { chunks: 0, bytes: 0, noiseBytes: 0, lastChunkAt: null as number | null };

  constructor(
    readonly url: string,
    private readonly ffmpeg: FfmpegProcess,
    private readonly closeTimeoutMs: number,
  ) {
    this.reader = ffmpeg.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  get pid(): number | undefined {
    return this.ffmpeg.pid;
  }

  /** null once whole packets came; else why not (ffmpeg's end, or the time it took). */
  async waitForFirstBytes(timeoutMs: number): Promise<AdapterError | null> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<AdapterError>((resolve) => {
      timer = setTimeout(
        () => resolve(new AdapterError('ERR_CAPTURE_OPEN_FAILED', `capture of ${this.url}: no video within ${timeoutMs} ms: ${this.ffmpeg.lastStderr() || 'ffmpeg said nothing'}`)),
        timeoutMs,
      );
    });
    const read = (async () => {
      for (;;) {
        const packets = await this.readPackets();
        if (packets === null) return (await this.ffmpeg.exited) ?? new AdapterError('ERR_CAPTURE_OPEN_FAILED', `capture of ${this.url}: ffmpeg ended without video`);
        if (packets.length > 0) {
          this.first = packets;
          return null;
        }
      }
    })().catch((error: unknown) => new AdapterError('ERR_CAPTURE_OPEN_FAILED', `capture of ${this.url}: ${error instanceof Error ? error.message : String(error)}`));
    try {
      return await Promise.race([read, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<LiveChunk> {
    return {
      next: () => this.next(),
      return: async () => {
        await this.close();
        return DONE;
      },
    };
  }

  stats(): LiveSourceStats {
    return { ...this.counters, applicationLoss: 0, rtpGaps: 0, rtpLost: 0, socketDrops: 0, rtp: false };
  }

  /** Stops ffmpeg (SIGTERM, SIGKILL after closeTimeoutMs); the iteration ends. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.ffmpeg.stop(this.closeTimeoutMs);
    return this.closing;
  }

  private async next(): Promise<IteratorResult<LiveChunk>> {
    for (;;) {
      if (this.ended) return DONE;
      const packets = this.first ?? (await this.readPackets());
      this.first = null;
      if (packets === null) {
        this.ended = true;
        const failure = await this.ffmpeg.exited;
        // ffmpeg gone while nobody asked it to stop (a SIGKILL, a device unplugged): the consumer hears why.
        if (failure !== null && this.closing === null) throw failure;
        return DONE;
      }
      if (packets.length === 0) continue;
      const receivedAt = epochNow();
      this.counters.chunks++;
      this.counters.bytes += packets.length;
      this.counters.lastChunkAt = receivedAt;
      return { done: false, value: { bytes: packets, receivedAt } };
    }
  }

  /** The next whole packets from ffmpeg (possibly none yet), or null at its end. */
  private async readPackets(): Promise<Uint8Array | null> {
    const read = await this.reader.next();
    const framed = read.done === true ? this.framer.flush() : this.framer.push(read.value);
    for (const run of framed.noise) this.counters.noiseBytes += run.count;
    if (read.done === true && framed.bytes.length === 0) return null;
    return framed.bytes;
  }
}
