/**
 * The H.264 variant of a recording, for a browser that cannot play its
 * video (MPEG-2, H.265: DESIGN.md "Browser code"): ffmpeg transcodes the
 * whole file once (adapters' transcodeFile: the input's PTS kept, so the
 * page's stream clock holds) into `<data>/playback-cache/<file hash>-h264.ts`,
 * written under a temporary name and renamed when complete, so a cached
 * file is always whole. One transcode per file at a time: a second request
 * joins the running one. A failure is reported once (with what ffmpeg said)
 * and the next request tries again. Closing the service kills ffmpeg and
 * removes what it had half-written.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readFileHead, transcodeFile } from '@klvscope/adapters';
import { isVideoStreamType, TsDemuxer, type Logger } from '@klvscope/core';

export type TranscodeAnswer =
  /** The file to serve: the cached transcode, or the recording itself when its video is H.264 already. */
  | { state: 'ready'; path: string }
  | { state: 'transcoding'; progress: number }
  | { state: 'failed'; message: string }
  /** No ffmpeg: why, in a sentence naming what to install. */
  | { state: 'unavailable'; message: string };

interface Running {
  progress: number;
  abort: AbortController;
  done: Promise<void>;
}

const H264_STREAM_TYPE = 0x1b;
/** Bytes read from the head of a recording to find its PMT. */
const PMT_SCAN_BYTES = 2 * 1024 * 1024;

export class PlaybackTranscodes {
  private readonly running = new Map<string, Running>();
  private readonly failures = new Map<string, string>();
  private readonly h264Sources = new Map<string, boolean>();
  private closed = false;

  constructor(
    private readonly cacheDir: string,
    /** The ffmpeg to run, or null (then the answer is 'unavailable' with this message). */
    private readonly ffmpeg: () => { path: string } | { missing: string },
    private readonly log: Logger,
  ) {}

  /** The cached transcode of a file hash. */
  cachePath(fileHash: string): string {
    return join(this.cacheDir, `${fileHash}-h264.ts`);
  }

  /** What to serve for the H.264 variant of `sourcePath` (content hash `fileHash`), starting its transcode if needed. */
  async request(fileHash: string, sourcePath: string): Promise<TranscodeAnswer> {
    if (await this.isH264(fileHash, sourcePath)) return { state: 'ready', path: sourcePath };
    const running = this.running.get(fileHash);
    if (running) return { state: 'transcoding', progress: running.progress };
    const failure = this.failures.get(fileHash);
    if (failure !== undefined) {
      this.failures.delete(fileHash);
      return { state: 'failed', message: failure };
    }
    const cached = this.cachePath(fileHash);
    if (await isFile(cached)) return { state: 'ready', path: cached };
    const ffmpeg = this.ffmpeg();
    if ('missing' in ffmpeg) return { state: 'unavailable', message: ffmpeg.missing };
    if (this.closed) return { state: 'failed', message: 'the service is shutting down' };
    this.start(fileHash, sourcePath, ffmpeg.path);
    return { state: 'transcoding', progress: 0 };
  }

  /** Waits for a running transcode of that hash (tests, and callers that would rather wait). */
  async settled(fileHash: string): Promise<void> {
    await this.running.get(fileHash)?.done;
  }

  /** Removes the cached transcodes of these hashes (their archive entries deleted); a running one is stopped first. */
  async remove(fileHashes: readonly string[]): Promise<void> {
    for (const hash of fileHashes) {
      const running = this.running.get(hash);
      running?.abort.abort();
      await running?.done;
      this.failures.delete(hash);
      this.h264Sources.delete(hash);
      await rm(this.cachePath(hash), { force: true });
    }
  }

  /** Kills every running ffmpeg and removes its half-written output. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.running.values()];
    for (const running of all) running.abort.abort();
    await Promise.all(all.map((running) => running.done));
  }

  private start(fileHash: string, sourcePath: string, ffmpegPath: string): void {
    const abort = new AbortController();
    const temporary = `${this.cachePath(fileHash)}.${randomBytes(6).toString('hex')}.part`;
    const entry: Running = { progress: 0, abort, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        await mkdir(this.cacheDir, { recursive: true });
        const started = Date.now();
        const outcome = await transcodeFile(sourcePath, temporary, {
          ffmpegPath,
          signal: abort.signal,
          // The last percent is ffmpeg flushing: "100" only once the file is in place.
          onProgress: (fraction) => (entry.progress = Math.min(fraction, 0.99)),
        });
        if (outcome === 'done') {
          await rename(temporary, this.cachePath(fileHash));
          this.log.info('playback: transcoded to H.264', { fileHash, ms: Date.now() - started });
        } else if (outcome !== 'aborted') {
          this.failures.set(fileHash, outcome.message);
          this.log.warn('playback: transcode failed', { fileHash, reason: outcome.message });
        }
      } catch (error) {
        this.failures.set(fileHash, `transcoding ${sourcePath}: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        await rm(temporary, { force: true });
        this.running.delete(fileHash);
      }
    })();
    this.running.set(fileHash, entry);
  }

  /** Whether the recording's first video stream is H.264 already (ISO 13818-1 Table 2-34: stream_type 0x1B), from the PMT in its head. */
  private async isH264(fileHash: string, sourcePath: string): Promise<boolean> {
    const known = this.h264Sources.get(fileHash);
    if (known !== undefined) return known;
    let videoType: number | null = null;
    const demuxer = new TsDemuxer((observation) => {
      if (observation.kind !== 'pmt' || videoType !== null) return;
      videoType = observation.streams.find((stream) => isVideoStreamType(stream.streamType))?.streamType ?? null;
    });
    demuxer.push(await readFileHead(sourcePath, PMT_SCAN_BYTES));
    const h264 = videoType === H264_STREAM_TYPE;
    this.h264Sources.set(fileHash, h264);
    return h264;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
