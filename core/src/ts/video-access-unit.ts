/**
 * What one access unit (one video PES payload) says about its picture: the
 * coding type of its first slice (ITU-T H.264 7.3.3 slice_type, H.265
 * 7.3.6.1 slice_type, ISO/IEC 13818-2 6.2.3 picture_coding_type), whether it
 * starts a closed group of pictures, and the sequence parameters it carries.
 * One reader per PID: an H.265 slice header cannot be read without the
 * picture parameter set it names, which an earlier access unit may have
 * brought. Never throws: bytes that do not parse give no picture.
 */
import { nalUnitEnd, nalUnitRbsp, nextNalUnitStart } from './annex-b-nal-units.js';
import { parseH264Sps } from './h264-sps.js';
import { parseHevcSps } from './hevc-sps.js';
import { parseMpeg2SequenceHeader } from './mpeg2-sequence-header.js';
import { RbspBitReader } from './rbsp-bit-reader.js';
import type { VideoCodec } from './video-resolution.js';

export type PictureType = 'I' | 'P' | 'B';

/** The sequence parameters of a stream, as its SPS or sequence header gives them. */
export interface VideoSequenceParameters {
  width: number;
  height: number;
  profile: string | null;
  level: string | null;
  /** H.265 only: 'Main' or 'High'. */
  tier: string | null;
  /** 'monochrome', '4:2:0', '4:2:2' or '4:4:4', when the parameter set says. */
  chromaFormat: string | null;
  /** Frames per second from the stream's own timing information, or null when it has none. */
  frameRate: number | null;
}

export interface AccessUnitPicture {
  type: PictureType;
  /**
   * An instantaneous refresh that nothing after it may predict across: an H.264 IDR, an H.265
   * IDR or BLA, an MPEG-2 I picture after a GOP header with closed_gop set.
   */
  closesGop: boolean;
}

export interface AccessUnitReading {
  picture: AccessUnitPicture | null;
  /** The parameters of a sequence parameter set or sequence header found in the unit, else null. */
  sequence: VideoSequenceParameters | null;
}

/** Table 6-1 of H.264 and H.265: chroma_format_idc. */
const CHROMA_FORMATS = ['monochrome', '4:2:0', '4:2:2', '4:4:4'];

/** H.264 Table 7-1 NAL unit types. */
/** How far into a PES payload its first start code may lie (leading zero bytes, a stray byte or two). */
const ACCESS_UNIT_START_BYTES = 64;
const H264_NON_IDR_SLICE = 1;
const H264_IDR_SLICE = 5;
const H264_SPS = 7;
/** H.264 Table 7-6: slice_type modulo 5 (P, B, I, SP, SI); SP is predicted, SI intra. */
const H264_SLICE_TYPES: readonly PictureType[] = ['P', 'B', 'I', 'P', 'I'];

/** H.265 Table 7-1 NAL unit types. */
const HEVC_LAST_VCL = 31;
const HEVC_BLA_FIRST = 16;
const HEVC_IDR_LAST = 20;
const HEVC_IRAP_LAST = 23;
const HEVC_SPS = 33;
const HEVC_PPS = 34;
/** H.265 Table 7-7: slice_type 0 B, 1 P, 2 I. */
const HEVC_SLICE_TYPES: readonly PictureType[] = ['B', 'P', 'I'];

/** ISO/IEC 13818-2 Table 6-1 start codes; Table 6-12 picture_coding_type 1 I, 2 P, 3 B. */
const MPEG2_PICTURE = 0x00;
const MPEG2_GROUP = 0xb8;
const MPEG2_SEQUENCE = 0xb3;
const MPEG2_PICTURE_TYPES: readonly (PictureType | null)[] = [null, 'I', 'P', 'B'];

/** What an H.265 slice header needs of its PPS (7.3.2.3.1). */
interface HevcPpsFields {
  dependentSliceSegmentsEnabled: boolean;
  numExtraSliceHeaderBits: number;
}

export class VideoAccessUnitReader {
  /** H.265: the picture parameter sets seen, by pps_pic_parameter_set_id. */
  private readonly hevcPps = new Map<number, HevcPpsFields>();

  constructor(readonly codec: VideoCodec) {}

  /** Reads one access unit (a PES payload). */
  read(bytes: Uint8Array): AccessUnitReading {
    // Muxers start a video PES with an access unit (ISO 13818-1 2.14, 2.17; its start code first): a payload
    // with no start code in its first bytes (filler, a unit cut at its start) is not searched further.
    if (nextNalUnitStart(bytes, 0, Math.min(bytes.length, ACCESS_UNIT_START_BYTES)) < 0) return { picture: null, sequence: null };
    try {
      if (this.codec === 'H.264') return this.readH264(bytes);
      if (this.codec === 'HEVC') return this.readHevc(bytes);
      return readMpeg2(bytes);
    } catch {
      // The parsers below are written not to throw; this keeps a slip of theirs from ending the pass.
      return { picture: null, sequence: null };
    }
  }

  /** H.264 7.3.3: first_mb_in_slice then slice_type, from the first slice of the unit. */
  private readH264(bytes: Uint8Array): AccessUnitReading {
    let sequence: VideoSequenceParameters | null = null;
    for (let start = nextNalUnitStart(bytes, 0); start >= 0 && start < bytes.length; start = nextNalUnitStart(bytes, start)) {
      const type = bytes[start] & 0x1f;
      if (type === H264_SPS && sequence === null) {
        const sps = parseH264Sps(nalUnitRbsp(bytes, start, nalUnitEnd(bytes, start), 1));
        if (sps) sequence = { width: sps.width, height: sps.height, profile: sps.profile, level: sps.level, tier: null, chromaFormat: CHROMA_FORMATS[sps.chromaFormatIdc], frameRate: sps.frameRate };
      } else if (type === H264_NON_IDR_SLICE || type === H264_IDR_SLICE) {
        // The slice header's first bytes are enough; two ue(v) fit in 8 bytes of any plausible value.
        const r = new RbspBitReader(nalUnitRbsp(bytes, start, nalUnitEnd(bytes, start, Math.min(bytes.length, start + 16)), 1));
        r.ue(); // first_mb_in_slice
        const sliceType = r.ue();
        if (r.overrun || sliceType > 9) return { picture: null, sequence };
        return { picture: { type: H264_SLICE_TYPES[sliceType % 5], closesGop: type === H264_IDR_SLICE }, sequence };
      }
    }
    return { picture: null, sequence };
  }

  /** H.265 7.3.6.1: slice_type of the unit's first slice segment, read with the PPS it names. */
  private readHevc(bytes: Uint8Array): AccessUnitReading {
    let sequence: VideoSequenceParameters | null = null;
    for (let start = nextNalUnitStart(bytes, 0); start >= 0 && start < bytes.length; start = nextNalUnitStart(bytes, start)) {
      const type = (bytes[start] >> 1) & 0x3f;
      if (type === HEVC_SPS && sequence === null) {
        const sps = parseHevcSps(nalUnitRbsp(bytes, start, nalUnitEnd(bytes, start), 2));
        if (sps) sequence = { width: sps.width, height: sps.height, profile: sps.profile, level: sps.level, tier: sps.tier, chromaFormat: CHROMA_FORMATS[sps.chromaFormatIdc], frameRate: sps.frameRate };
      } else if (type === HEVC_PPS) {
        this.readHevcPps(nalUnitRbsp(bytes, start, nalUnitEnd(bytes, start, Math.min(bytes.length, start + 16)), 2));
      } else if (type <= HEVC_LAST_VCL) {
        const picture = this.readHevcSlice(type, nalUnitRbsp(bytes, start, nalUnitEnd(bytes, start, Math.min(bytes.length, start + 32)), 2));
        return { picture, sequence };
      }
    }
    return { picture: null, sequence };
  }

  /** 7.3.2.3.1: the PPS fields that come before slice_type in a slice header. */
  private readHevcPps(rbsp: Uint8Array): void {
    const r = new RbspBitReader(rbsp);
    const id = r.ue();
    r.ue(); // pps_seq_parameter_set_id
    const dependentSliceSegmentsEnabled = r.bit() === 1;
    r.skip(1); // output_flag_present_flag
    const numExtraSliceHeaderBits = r.bits(3);
    if (!r.overrun && id <= 63) this.hevcPps.set(id, { dependentSliceSegmentsEnabled, numExtraSliceHeaderBits });
  }

  private readHevcSlice(nalType: number, rbsp: Uint8Array): AccessUnitPicture | null {
    const r = new RbspBitReader(rbsp);
    const firstInPicture = r.bit() === 1;
    // A unit whose first VCL NAL is not its picture's first segment lost its start: no picture to count.
    if (!firstInPicture) return null;
    if (nalType >= HEVC_BLA_FIRST && nalType <= HEVC_IRAP_LAST) r.skip(1); // no_output_of_prior_pics_flag
    const pps = this.hevcPps.get(r.ue());
    if (!pps) return null;
    r.skip(pps.numExtraSliceHeaderBits); // slice_reserved_flag[i]
    const sliceType = r.ue();
    if (r.overrun || sliceType > 2) return null;
    return { type: HEVC_SLICE_TYPES[sliceType], closesGop: nalType >= HEVC_BLA_FIRST && nalType <= HEVC_IDR_LAST };
  }
}

/** ISO/IEC 13818-2 6.2.2.6 and 6.2.3: closed_gop of a GOP header, picture_coding_type of the picture header. */
function readMpeg2(bytes: Uint8Array): AccessUnitReading {
  let sequence: VideoSequenceParameters | null = null;
  let closedGop = false;
  for (let i = 0; i + 5 < bytes.length; i++) {
    if (bytes[i] !== 0 || bytes[i + 1] !== 0 || bytes[i + 2] !== 1) continue;
    const code = bytes[i + 3];
    if (code === MPEG2_SEQUENCE && sequence === null) {
      const header = parseMpeg2SequenceHeader(bytes.subarray(i));
      if (header) sequence = { width: header.width, height: header.height, profile: header.profile ?? null, level: header.level ?? null, tier: null, chromaFormat: header.chromaFormat ?? null, frameRate: header.frameRate };
    } else if (code === MPEG2_GROUP && i + 7 < bytes.length) {
      // time_code (25 bits) then closed_gop: bit 6 of the GOP header's fourth byte.
      closedGop = (bytes[i + 7] & 0x40) !== 0;
    } else if (code === MPEG2_PICTURE) {
      // temporal_reference (10 bits) then picture_coding_type (3 bits).
      const type = MPEG2_PICTURE_TYPES[(bytes[i + 5] >> 3) & 0x07] ?? null;
      return { picture: type === null ? null : { type, closesGop: type === 'I' && closedGop }, sequence };
    }
    i += 2;
  }
  return { picture: null, sequence };
}
