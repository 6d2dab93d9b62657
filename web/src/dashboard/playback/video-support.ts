/**
 * Whether this browser can show the recording's video: Chromium plays H.264
 * through Media Source Extensions, not H.265 nor MPEG-2 (DESIGN.md). For
 * another codec the inspection service can serve an H.264 variant
 * (`?video=h264`, transcoded with ffmpeg: transcoded-video.ts); the page
 * says why there is no picture when it cannot.
 */
import type { VideoStream } from './playback-sources.js';

const H264_STREAM_TYPE = 0x1b;
/** What mpegts.js makes of H.264 (fragmented MP4); the profile string only has to be one MSE knows. */
const H264_MSE_TYPE = 'video/mp4; codecs="avc1.42E01E"';

export type VideoPlayability =
  | { kind: 'direct' }
  /** The codec is one the browser cannot play: the service's H.264 variant may do; `codec` names it for the notices. */
  | { kind: 'transcode'; codec: string }
  | { kind: 'none'; reason: string };

export function videoPlayability(video: VideoStream | null): VideoPlayability {
  if (video === null) return { kind: 'none', reason: 'this recording has no video stream; the metadata panel and the map follow the time cursor.' };
  if (typeof MediaSource === 'undefined' || !MediaSource.isTypeSupported(H264_MSE_TYPE)) return { kind: 'none', reason: `this browser cannot play H.264 through Media Source Extensions.` };
  if (video.streamType !== H264_STREAM_TYPE) {
    return { kind: 'transcode', codec: `${video.streamTypeName ?? 'unknown codec'} (stream_type 0x${video.streamType.toString(16).padStart(2, '0')}, PID ${video.pid})` };
  }
  return { kind: 'direct' };
}

/** Why a codec the browser cannot play has no picture: the service could not transcode it (`why`: its answer, e.g. no ffmpeg). */
export function untranscodedReason(codec: string, why: string): string {
  return `the video is ${codec}, which this browser cannot play (Media Source Extensions take H.264 here), and the inspection service could not transcode it: ${why}`;
}
