/**
 * Whether the viewers get the source's video untouched or transcoded to
 * H.264: decided once per source run, when its PMT is read. Browsers (and
 * Debian's Chromium) play H.264 through Media Source Extensions, not MPEG-2
 * video or HEVC; those are transcoded when ffmpeg is there, and otherwise the
 * viewer is told why it gets no picture. `videoPassThrough: false` transcodes
 * H.264 too (to `videoBitrate` and `videoResolution`).
 */
import type { Transcoder } from '@klvscope/adapters';
import type { StreamingConfig } from './streaming-config.js';
import type { VideoStream } from './stream-analysis.js';

/** ISO 13818-1 Table 2-34: H.264 (ITU-T H.264 | ISO/IEC 14496-10). */
const H264_STREAM_TYPE = 0x1b;

/** What the module needs of a transcoder: TS in (never throws, never waits), TS out in whole packets, failures, close. */
export type VideoTranscoder = Pick<Transcoder, 'write' | 'onData' | 'onError' | 'close'>;

/** Starts a transcoder, or throws why it cannot (ffmpeg missing: AdapterError ERR_FFMPEG_NOT_FOUND). */
export type OpenTranscoder = (options: { videoBitrate: number; size?: { width: number; height: number } }) => VideoTranscoder;

export type VideoPath = { passThrough: true } | { passThrough: false; transcoder: VideoTranscoder } | { passThrough: false; noPictureReason: string };

export function chooseVideoPath(video: VideoStream | null, config: StreamingConfig, openTranscoder: OpenTranscoder | null): VideoPath {
  if (video === null || (video.streamType === H264_STREAM_TYPE && config.videoPassThrough)) return { passThrough: true };
  const why = video.streamType === H264_STREAM_TYPE ? 'the configuration asks for transcoded video (videoPassThrough: false)' : `the source's video is ${video.codec}, which browsers cannot play`;
  if (openTranscoder === null) return { passThrough: false, noPictureReason: `${why}, and this module has no transcoder` };
  try {
    return { passThrough: false, transcoder: openTranscoder({ videoBitrate: config.videoBitrate, size: sizeOf(config.videoResolution) }) };
  } catch (error) {
    return { passThrough: false, noPictureReason: `${why}, and it cannot be transcoded: ${(error as Error).message}` };
  }
}

function sizeOf(resolution: string | null): { width: number; height: number } | undefined {
  const match = resolution === null ? null : /^(\d+)x(\d+)$/.exec(resolution);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
}
