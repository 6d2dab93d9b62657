/**
 * Short STANAG 4609-like clips made by the tests with ffmpeg (never
 * committed): ffmpeg's `testsrc` picture encoded as H.264, MPEG-2 video or
 * HEVC in any pixel format ffmpeg's encoder takes (HEVC Rext `gbrp`,
 * `yuv444p`, 10-bit), optionally muxed with ST 0601 KLV from core's
 * generator (copied by ffmpeg, which writes it as asynchronous 0x06 'KLVA').
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findFfmpeg } from '@klvscope/adapters';
import { generateTransportStream, parseFaultSpec } from '@klvscope/core';

export type ClipCodec = 'h264' | 'mpeg2' | 'hevc';

export interface ClipOptions {
  codec: ClipCodec;
  /** ffmpeg's -pix_fmt; default yuv420p. */
  pixelFormat?: string;
  seconds: number;
  /** Default 160x120. */
  size?: string;
  /** Frames per second; default 25. */
  rate?: number;
  /** Video bits per second; default the encoder's own choice. */
  videoBitrate?: number;
  /** Seconds from one key frame to the next; default 1. */
  keyFrameSeconds?: number;
  /** B pictures between reference pictures (ffmpeg's -bf); default 0. libx265 and mpeg2video then make open GOPs, libx264 closed ones. */
  bFrames?: number;
  /** ST 0601 KLV at 25 Hz muxed beside the video; default false. */
  klv?: boolean;
  /** Faults of core's generator in that KLV (`klv-missing-version@0.2`); default none. */
  klvFaults?: string[];
}

function encoderArguments(codec: ClipCodec, bFrames: number): string[] {
  if (codec === 'h264') return ['-c:v', 'libx264', '-bf', String(bFrames)];
  if (codec === 'mpeg2') return ['-c:v', 'mpeg2video', '-bf', String(bFrames)];
  return ['-c:v', 'libx265', '-x265-params', `log-level=none:bframes=${bFrames}`];
}

/** Skips the running test, saying why, when there is no ffmpeg; else its path. */
export function ffmpegOrSkip(context: Mocha.Context): string {
  const ffmpeg = findFfmpeg();
  if (ffmpeg === null) {
    console.log('      skipped: no ffmpeg on the PATH (apt-get install ffmpeg)');
    context.skip();
  }
  return ffmpeg;
}

/** Writes the clip as `name` in `dir` and returns its path. */
export function makeClip(ffmpeg: string, dir: string, name: string, options: ClipOptions): string {
  const { codec, pixelFormat = 'yuv420p', seconds, size = '160x120', rate = 25 } = options;
  const video = join(dir, `${name}.video.ts`);
  const bitrate = options.videoBitrate === undefined ? [] : ['-b:v', String(options.videoBitrate), '-maxrate', String(options.videoBitrate), '-bufsize', String(options.videoBitrate)];
  run(ffmpeg, ['-f', 'lavfi', '-i', `testsrc=size=${size}:rate=${rate}`, '-t', String(seconds), ...encoderArguments(codec, options.bFrames ?? 0), ...bitrate, '-pix_fmt', pixelFormat, '-g', String(Math.round(rate * (options.keyFrameSeconds ?? 1))), '-f', 'mpegts', video]);
  const path = join(dir, `${name}.ts`);
  if (options.klv !== true) {
    run(ffmpeg, ['-i', video, '-map', '0:v', '-c', 'copy', '-f', 'mpegts', path]);
    return path;
  }
  const klv = join(dir, `${name}.klv.ts`);
  const faults = (options.klvFaults ?? []).map((spec) => parseFaultSpec(spec));
  writeFileSync(klv, generateTransportStream({ durationSeconds: seconds, bitrate: 300_000, videoFrameRate: rate, klv: { rateHz: rate }, faults }).bytes);
  run(ffmpeg, ['-i', video, '-i', klv, '-map', '0:v', '-map', '1:d', '-c', 'copy', '-f', 'mpegts', path]);
  return path;
}

function run(ffmpeg: string, args: string[]): void {
  execFileSync(ffmpeg, ['-hide_banner', '-nostats', '-loglevel', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
}
