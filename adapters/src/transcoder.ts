/**
 * The transcoder: MPEG-TS in, MPEG-TS out with the video as H.264 (libx264),
 * for sources a browser cannot play (MPEG-2 video, H.265). It runs ffmpeg
 * (find-ffmpeg.ts) on pipes.
 *
 * The KLV data streams go through untouched (`-map 0:d? -c:d copy`; ffmpeg
 * 5.1 writes each as stream_type 0x06 with a 'KLVA' registration
 * descriptor, synchronous 0x15 input included), and the timestamps are
 * the input's own: `-copyts` keeps them, `-muxdelay 0 -muxpreload 0` stops
 * the muxer adding its 0.7 s (twice), and a 90 kHz encoder time base stops
 * ffmpeg rounding video PTS to the frame rate (at 1 frame/s it moved them
 * by 0.4 s). So a KLV packet's PTS still names the frame it describes. Audio
 * is left out: the viewer plays no sound.
 *
 * `write` is called on the streaming hot path: it never throws and never
 * waits. Bytes ffmpeg has not taken yet are bounded: beyond the bound,
 * chunks are dropped, counted and reported (`onDrop`), never queued.
 */
import { AdapterError } from './adapter-error.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { ffmpegNotFound, findFfmpeg } from './find-ffmpeg.js';
import { h264EncoderArgs, type H264EncoderOptions } from './h264-encoder-args.js';
import { TsFramer } from './ts-framer.js';

export interface TranscoderOptions extends H264EncoderOptions {
  /** The ffmpeg to run (default: findFfmpeg(), i.e. KLVSCOPE_FFMPEG or the PATH). */
  ffmpegPath?: string;
  /** Bytes written and not yet taken by ffmpeg before chunks are dropped (default 8 MiB). */
  maxQueuedBytes?: number;
  /** How long `close` lets ffmpeg finish before killing it (default 5000 ms). */
  closeTimeoutMs?: number;
}

export interface TranscoderStats {
  /** Bytes handed to ffmpeg. */
  bytesIn: number;
  /** Bytes of TS out (whole packets). */
  bytesOut: number;
  /** Chunks (and their bytes) dropped because ffmpeg fell behind. */
  droppedChunks: number;
  droppedBytes: number;
}

/** Chunks dropped since the last report, reported at most this often. */
const DROP_REPORT_INTERVAL_MS = 1000;
const DEFAULT_MAX_QUEUED_BYTES = 8 * 1024 * 1024;
/** Enough input to find the video's parameters (its first sequence parameter set): half a second, or 512 KiB. */
const PROBE_MICROSECONDS = 500_000;
const PROBE_BYTES = 512 * 1024;

export class Transcoder {
  /** TS out: whole 188-byte packets, in order, starting with ffmpeg's PAT and PMT. The array is the listener's. */
  onData: ((chunk: Uint8Array) => void) | null = null;
  /** ffmpeg failed (also while closing, when it could not finish): AdapterError ERR_FFMPEG_FAILED (its last stderr lines in the message) or ERR_FFMPEG_NOT_FOUND. Once at most. */
  onError: ((error: AdapterError) => void) | null = null;
  /** Input dropped because ffmpeg fell behind: count and bytes since the last report, at most once a second. */
  onDrop: ((drop: { chunks: number; bytes: number; message: string }) => void) | null = null;
  /** The ffmpeg arguments used (after `-hide_banner -nostats -loglevel error`). */
  readonly args: readonly string[];

  private readonly process: FfmpegProcess;
  private readonly framer = new TsFramer();
  private readonly maxQueuedBytes: number;
  private readonly closeTimeoutMs: number;
  private readonly counters: TranscoderStats = { bytesIn: 0, bytesOut: 0, droppedChunks: 0, droppedBytes: 0 };
  private pendingDrop = { chunks: 0, bytes: 0 };
  private lastDropReportAt = -Infinity;
  private closing: Promise<void> | null = null;
  private ended = false;

  /** Starts ffmpeg. Throws AdapterError ERR_FFMPEG_NOT_FOUND (saying what to install) when there is none. */
  constructor(options: TranscoderOptions = {}) {
    const ffmpegPath = options.ffmpegPath ?? findFfmpeg();
    if (ffmpegPath === null) throw ffmpegNotFound('Transcoding video for the browser');
    this.maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
    this.closeTimeoutMs = options.closeTimeoutMs ?? 5000;
    this.args = transcoderArgs(options);
    this.process = new FfmpegProcess(ffmpegPath, this.args, { stdin: true, what: 'transcoder' });
    this.process.stdout.on('data', (chunk: Buffer) => this.deliver(this.framer.push(chunk).bytes));
    this.process.stdout.once('end', () => this.deliver(this.framer.flush().bytes));
    void this.process.exited.then((error) => {
      this.ended = true;
      if (error !== null) this.onError?.(error);
    });
  }

  /** The ffmpeg process id (for tests and diagnostics). */
  get pid(): number | undefined {
    return this.process.pid;
  }

  stats(): TranscoderStats {
    return { ...this.counters };
  }

  /** Hands TS bytes to ffmpeg. Never throws, never waits: when ffmpeg is behind by more than the bound, the chunk is dropped. */
  write(bytes: Uint8Array): void {
    const stdin = this.process.stdin;
    if (this.ended || this.closing !== null || stdin === null || bytes.length === 0) return;
    if (stdin.writableLength + bytes.length > this.maxQueuedBytes) {
      this.drop(bytes.length);
      return;
    }
    this.counters.bytesIn += bytes.length;
    // A copy: the caller may reuse its buffer once write returns, and the pipe takes it later.
    stdin.write(Buffer.from(bytes));
  }

  /** Ends the input, lets ffmpeg write what it holds (onData hears it), and resolves once it has gone (killed after closeTimeoutMs). */
  close(): Promise<void> {
    this.closing ??= this.process.stop(this.closeTimeoutMs).then(() => this.reportDrops());
    return this.closing;
  }

  private deliver(packets: Uint8Array): void {
    if (packets.length === 0) return;
    this.counters.bytesOut += packets.length;
    this.onData?.(packets);
  }

  private drop(bytes: number): void {
    this.counters.droppedChunks++;
    this.counters.droppedBytes += bytes;
    this.pendingDrop.chunks++;
    this.pendingDrop.bytes += bytes;
    if (Date.now() - this.lastDropReportAt >= DROP_REPORT_INTERVAL_MS) this.reportDrops();
  }

  private reportDrops(): void {
    const { chunks, bytes } = this.pendingDrop;
    if (chunks === 0) return;
    this.pendingDrop = { chunks: 0, bytes: 0 };
    this.lastDropReportAt = Date.now();
    const message = `${chunks} chunk(s) (${bytes} bytes) not transcoded: ffmpeg fell behind by more than ${this.maxQueuedBytes} bytes`;
    this.onDrop?.({ chunks, bytes, message });
  }
}

/** The ffmpeg arguments for the options (exported for the docs and tests); `output` is where the TS goes (default stdout). */
export function transcoderArgs(options: TranscoderOptions = {}, output = 'pipe:1'): string[] {
  return [
    '-copyts',
    // ffmpeg probes 5 s of a live input by default before writing a byte: the first picture waited for it.
    '-analyzeduration', String(PROBE_MICROSECONDS), '-probesize', String(PROBE_BYTES),
    '-f', 'mpegts', '-i', 'pipe:0',
    '-map', '0:v:0', '-map', '0:d?',
    ...h264EncoderArgs(options),
    // PTS as they came: ffmpeg's default encoder time base is 1/frame rate, which rounds them.
    '-enc_time_base:v', '1:90000',
    '-c:d', 'copy',
    '-muxdelay', '0', '-muxpreload', '0', '-flush_packets', '1',
    '-f', 'mpegts', output,
  ];
}
