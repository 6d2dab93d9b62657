/**
 * Whether this browser can show the recording's video: Chromium plays H.264
 * through Media Source Extensions, not H.265 nor MPEG-2 (DESIGN.md). The
 * inspection service serves the file as it is (it does not transcode), so
 * for another codec the page says why there is no picture.
 */
import type { VideoStream } from './playback-sources.js';

const H264_STREAM_TYPE = 0x1b;
/** What mpegts.js makes of H.264 (fragmented MP4); the profile string only has to be one MSE knows. */
const H264_MSE_TYPE = 'video/mp4; codecs="avc1.42E01E"';

/** Null when the video can be played, else why not, in a sentence. */
export function noPictureReason(video: VideoStream | null): string | null {
  if (video === null) return 'this recording has no video stream; the metadata panel and the map follow the time cursor.';
  const name = `${video.streamTypeName ?? 'unknown codec'} (stream_type 0x${video.streamType.toString(16).padStart(2, '0')}, PID ${video.pid})`;
  if (video.streamType !== H264_STREAM_TYPE) {
    return `the video is ${name}, which this browser cannot play (Media Source Extensions take H.264 here), and the inspection service serves recordings untranscoded.`;
  }
  if (typeof MediaSource === 'undefined' || !MediaSource.isTypeSupported(H264_MSE_TYPE)) return `this browser cannot play H.264 through Media Source Extensions.`;
  return null;
}
