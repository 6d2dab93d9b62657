/**
 * The ffmpeg output options of an H.264 stream a browser plays at once
 * (the transcoder's and the capture source's): libx264 tuned for latency,
 * 4:2:0 and no B-frames (what every browser decoder takes, with no
 * reordering delay), a key frame every N seconds so a viewer who joins sees
 * a picture within that.
 */

export interface H264EncoderOptions {
  /** H.264 bitrate, bits/s (default 2 000 000). */
  videoBitrate?: number;
  /** Output picture size, even numbers (libx264's 4:2:0 needs them; ffmpeg refuses odd ones); default: the input's. */
  size?: { width: number; height: number };
  /** Seconds between key frames (default 1). */
  keyframeIntervalSeconds?: number;
}

export function h264EncoderArgs(options: H264EncoderOptions): string[] {
  const bitrate = Math.round(options.videoBitrate ?? 2_000_000);
  const keyframeSeconds = options.keyframeIntervalSeconds ?? 1;
  if (!(bitrate > 0)) throw new RangeError(`videoBitrate must be positive, got ${options.videoBitrate}`);
  if (!(keyframeSeconds > 0)) throw new RangeError(`keyframeIntervalSeconds must be positive, got ${keyframeSeconds}`);
  const size = options.size;
  if (size && !(Number.isInteger(size.width) && Number.isInteger(size.height) && size.width > 0 && size.height > 0)) {
    throw new RangeError(`size must be whole positive numbers, got ${size.width}x${size.height}`);
  }
  return [
    '-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency',
    '-b:v', String(bitrate), '-maxrate', String(bitrate), '-bufsize', String(bitrate),
    '-pix_fmt', 'yuv420p', '-bf', '0',
    ...(size ? ['-s', `${size.width}x${size.height}`] : []),
    // -g counts frames, and the frame rate is not known up front: force key frames by time instead.
    '-force_key_frames', `expr:if(isnan(prev_forced_t),1,gte(t,prev_forced_t+${keyframeSeconds}))`,
  ];
}
