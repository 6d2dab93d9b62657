/**
 * The streaming module's built-in demo (issue 22): a real H.264 clip in a
 * loop (h264-clip-source.ts) with synchronous MISB ST 0601 KLV, one packet
 * per video frame with that frame's PTS (MISB ST 1402, stream_type 0x15),
 * along the generator's orbit (klv-flight-path.ts). PCR and PTS run on
 * across the loop points, so a player sees one endless stream.
 *
 * The stream is constant-bitrate (null packets fill the rest), with a PCR at
 * most every 40 ms and the PAT and PMT at most every 100 ms (TR 101 290 1.3,
 * 1.5), in small chunks of whole packets, so a sender pacing them by their
 * PCR sends them smoothly.
 */
import type { StreamLayout } from './fault-injector.js';
import { createGenerator } from './generator.js';
import { GeneratorError } from './generator-error.js';
import { H264ClipSource } from './h264-clip-source.js';
import { TS_PACKET_SIZE } from '../ts/ts-packet.js';
import { videoResolutionOf, type VideoResolution } from '../ts/video-resolution.js';

export interface DemoStreamOptions {
  /** Transport stream bitrate (bits/s, null packets included); default 1 500 000: an I-frame of the clip takes about 40 ms. */
  bitrate?: number;
  /** 188-byte packets per chunk; default 7 (1316 bytes, as in a UDP datagram). */
  chunkPackets?: number;
  /** The clip's frames per second, and the KLV packet rate; default 30. */
  frameRate?: number;
  /** ST 0601 item 2 of the first packet, µs since 1970; default: when the stream is created, to the ms. */
  startTimeMicros?: number;
  /** ST 0601 item 3; default 'KLVSCOPE-DEMO'. */
  missionId?: string;
  /** Seed of the orbit's place, size and phase; default 1. */
  seed?: number;
  /** Seconds of stream; default Infinity (endless). */
  durationSeconds?: number;
}

/** The demo's chunks (an endless iterator unless durationSeconds says otherwise) and what a status page shows of them. */
export interface DemoStream extends IterableIterator<Uint8Array> {
  /** PIDs, bitrate and clocks of the stream. */
  readonly layout: StreamLayout;
  /** The clip's average bitrate (bits/s). */
  readonly videoBitrate: number;
  readonly frameRate: number;
  /** Frames in one loop of the clip. */
  readonly clipFrames: number;
  /** From the clip's first sequence parameter set (null if none can be read). */
  readonly videoResolution: VideoResolution | null;
}

export const DEMO_BITRATE = 1_500_000;
export const DEMO_CHUNK_PACKETS = 7;
export const DEMO_MISSION_ID = 'KLVSCOPE-DEMO';

/**
 * The demo stream of an Annex B H.264 clip (gateway/assets/demo-clip.h264:
 * an AUD before every access unit, an IDR first, no B-frames). Throws
 * GeneratorError for a clip that cannot be looped or options out of range.
 */
export function createDemoStream(clip: Uint8Array, options: DemoStreamOptions = {}): DemoStream {
  const frameRate = options.frameRate ?? 30;
  const chunkPackets = options.chunkPackets ?? DEMO_CHUNK_PACKETS;
  if (!(Number.isInteger(chunkPackets) && chunkPackets >= 2)) {
    throw new GeneratorError('ERR_GENERATOR_OPTIONS', `chunkPackets must be an integer of at least 2, got ${chunkPackets}`);
  }
  const video = new H264ClipSource(clip, { frameRate });
  const generator = createGenerator({
    durationSeconds: options.durationSeconds ?? Infinity,
    bitrate: options.bitrate ?? DEMO_BITRATE,
    seed: options.seed ?? 1,
    videoSource: video,
    videoFrameRate: frameRate,
    klv: {
      carriage: 'sync',
      rateHz: frameRate,
      missionId: options.missionId ?? DEMO_MISSION_ID,
      startTimeMicros: options.startTimeMicros ?? Date.now() * 1000,
    },
    chunkBytes: chunkPackets * TS_PACKET_SIZE,
  });
  return Object.assign(generator.chunks(), {
    layout: generator.layout,
    videoBitrate: video.nominalBitrate,
    frameRate,
    clipFrames: video.accessUnits.length,
    videoResolution: videoResolutionOf(video.accessUnits[0].bytes, video.streamType),
  });
}
