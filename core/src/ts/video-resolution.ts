/**
 * The picture size of a video stream from its parameter sets: the H.264 SPS
 * (ITU-T H.264 7.3.2.1.1), the H.265 SPS (7.3.2.2.1) or the MPEG-2
 * sequence header (ISO/IEC 13818-2 6.2.2.1), found in a PES payload or an
 * access unit. Never throws: bytes without a readable one give null.
 */
import { annexBNalUnits, nalUnitRbsp } from './annex-b-nal-units.js';
import { parseH264Sps } from './h264-sps.js';
import { parseHevcSps } from './hevc-sps.js';
import { parseMpeg2SequenceHeader } from './mpeg2-sequence-header.js';

export type VideoCodec = 'H.264' | 'MPEG-2' | 'HEVC';

export interface VideoResolution {
  /** Luma samples of the displayed picture (after cropping / the conformance window). */
  width: number;
  height: number;
  codec: VideoCodec;
  /** The profile's name in its standard's Annex A (Table 8-2 for MPEG-2), when the stream says. */
  profile?: string;
}

/** ISO 13818-1 Table 2-34 stream_type of each codec read here. */
const STREAM_TYPE_CODECS: Readonly<Record<number, VideoCodec>> = { 0x02: 'MPEG-2', 0x1b: 'H.264', 0x24: 'HEVC' };

/** H.264 Table 7-1 and H.265 Table 7-1: the NAL unit type of a sequence parameter set. */
const H264_SPS = 7;
const HEVC_SPS = 33;

/** The codec whose resolution can be read from streams of this stream_type, or null. */
export function videoCodecOf(streamType: number): VideoCodec | null {
  return STREAM_TYPE_CODECS[streamType] ?? null;
}

/** The resolution given by the first readable parameter set in `bytes` (a PES payload of a stream of `streamType`), or null. */
export function videoResolutionOf(bytes: Uint8Array, streamType: number): VideoResolution | null {
  const codec = videoCodecOf(streamType);
  if (codec === 'MPEG-2') {
    const header = parseMpeg2SequenceHeader(bytes);
    if (!header) return null;
    return header.profile === undefined ? { width: header.width, height: header.height, codec } : { width: header.width, height: header.height, codec, profile: header.profile };
  }
  if (codec === null) return null;
  for (const nal of annexBNalUnits(bytes)) {
    if (codec === 'H.264' && (bytes[nal.start] & 0x1f) === H264_SPS) {
      const sps = parseH264Sps(nalUnitRbsp(bytes, nal.start, nal.end, 1));
      if (sps) return { width: sps.width, height: sps.height, codec, profile: sps.profile };
    } else if (codec === 'HEVC' && ((bytes[nal.start] >> 1) & 0x3f) === HEVC_SPS) {
      const sps = parseHevcSps(nalUnitRbsp(bytes, nal.start, nal.end, 2));
      if (sps) return { width: sps.width, height: sps.height, codec, profile: sps.profile };
    }
  }
  return null;
}
