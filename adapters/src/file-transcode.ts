/**
 * A recorded file transcoded once, whole, into another file: the same ffmpeg
 * arguments as the streaming transcoder (transcoder.ts: video to H.264, KLV
 * copied, the input's PTS kept), but the input is read from the file with
 * back-pressure (nothing dropped), so the bytes handed over measure the
 * progress, and the output is written to a path the caller chooses (a
 * temporary name it renames once this resolves).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { AdapterError } from './adapter-error.js';
import { FfmpegProcess } from './ffmpeg-process.js';
import { transcoderArgs } from './transcoder.js';
import type { H264EncoderOptions } from './h264-encoder-args.js';

export interface FileTranscodeOptions extends H264EncoderOptions {
  /** The ffmpeg to run (found by the caller: findFfmpeg()). */
  ffmpegPath: string;
  /** Share of the input handed to ffmpeg so far, 0..1. */
  onProgress?: (fraction: number) => void;
  /** Aborting kills ffmpeg; the promise then resolves with 'aborted'. */
  signal?: AbortSignal;
}

/** Transcodes `inputPath` into `outputPath`: 'done', 'aborted', or an AdapterError (ERR_FFMPEG_FAILED / ERR_FFMPEG_NOT_FOUND) saying what ffmpeg said. */
export async function transcodeFile(inputPath: string, outputPath: string, options: FileTranscodeOptions): Promise<'done' | 'aborted' | AdapterError> {
  const { ffmpegPath, onProgress, signal, ...encoder } = options;
  if (signal?.aborted) return 'aborted';
  const { size } = await stat(inputPath);
  const ffmpeg = new FfmpegProcess(ffmpegPath, transcoderArgs(encoder, outputPath), { stdin: true, what: `transcoding ${inputPath}` });
  // Nothing comes on stdout (the output is a file), but the pipe must be drained for the process to be seen closing.
  ffmpeg.stdout.resume();
  const onAbort = () => void ffmpeg.stop(0);
  signal?.addEventListener('abort', onAbort, { once: true });
  let handed = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      handed += chunk.length;
      onProgress?.(size > 0 ? handed / size : 1);
      done(null, chunk);
    },
  });
  // The pipe fails when ffmpeg goes early (EPIPE); its exit says why.
  const feeding = ffmpeg.stdin ? pipeline(createReadStream(inputPath), counter, ffmpeg.stdin).catch(() => undefined) : Promise.resolve();
  const exited = await ffmpeg.exited;
  await feeding;
  signal?.removeEventListener('abort', onAbort);
  if (signal?.aborted) return 'aborted';
  return exited ?? 'done';
}
