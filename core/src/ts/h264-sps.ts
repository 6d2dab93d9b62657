/**
 * The picture size, profile, level and frame rate in an H.264 sequence
 * parameter set (ITU-T H.264 7.3.2.1.1), read as far as the VUI's timing
 * information (E.1.1). Never throws: a truncated or implausible SPS gives
 * null; a VUI cut short gives no frame rate.
 */
import { isPlausiblePictureSize } from './picture-size.js';
import { RbspBitReader } from './rbsp-bit-reader.js';

export interface H264SpsSummary {
  /** Luma samples after frame cropping (7.4.2.1.1). */
  width: number;
  height: number;
  profileIdc: number;
  levelIdc: number;
  /** Annex A level number, e.g. '3.1', '1b'. */
  level: string;
  /** Frames per second from the VUI's timing information (E.2.1), or null when the SPS has none. */
  frameRate: number | null;
  /** frame_mbs_only_flag is 0: the pictures may be fields (interlaced). */
  fieldCoding: boolean;
  /** 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4 (Table 6-1). */
  chromaFormatIdc: number;
  /** Annex A name, e.g. 'Constrained Baseline', 'High'. */
  profile: string;
}

/** A.2: profiles whose SPS carries chroma_format_idc, bit depths and scaling matrices (7.3.2.1.1). */
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

const PROFILE_NAMES: Readonly<Record<number, string>> = {
  66: 'Baseline',
  77: 'Main',
  88: 'Extended',
  100: 'High',
  110: 'High 10',
  122: 'High 4:2:2',
  244: 'High 4:4:4 Predictive',
  44: 'CAVLC 4:4:4 Intra',
  83: 'Scalable Baseline',
  86: 'Scalable High',
  118: 'Multiview High',
  128: 'Stereo High',
};

/** Annex A name of profile_idc with its constraint flags (A.2.1.1: Baseline with constraint_set1_flag is Constrained Baseline). */
function profileName(profileIdc: number, constraintFlags: number): string {
  if (profileIdc === 66 && (constraintFlags & 0x40) !== 0) return 'Constrained Baseline';
  return PROFILE_NAMES[profileIdc] ?? `profile_idc ${profileIdc}`;
}

/** A.3.1: level_idc 9, or 11 with constraint_set3_flag in the profiles without a level 1b of its own, is level 1b. */
function levelName(profileIdc: number, constraintFlags: number, levelIdc: number): string {
  if (levelIdc === 9 || (levelIdc === 11 && (constraintFlags & 0x10) !== 0 && (profileIdc === 66 || profileIdc === 77 || profileIdc === 88))) return '1b';
  return String(levelIdc / 10);
}

/** E.1.1: reads vui_parameters() as far as timing_info; frames per second (E.2.1: time_scale / (2 num_units_in_tick)) or null. */
function readVuiFrameRate(r: RbspBitReader): number | null {
  if (r.bit() === 1 && r.bits(8) === 255) r.skip(32); // aspect_ratio_idc Extended_SAR: sar_width, sar_height
  if (r.bit() === 1) r.skip(1); // overscan_appropriate_flag
  if (r.bit() === 1) {
    r.skip(4); // video_format, video_full_range_flag
    if (r.bit() === 1) r.skip(24); // colour_primaries, transfer_characteristics, matrix_coefficients
  }
  if (r.bit() === 1) {
    r.ue(); // chroma_sample_loc_type_top_field
    r.ue(); // chroma_sample_loc_type_bottom_field
  }
  if (r.bit() === 0) return null; // timing_info_present_flag
  const numUnitsInTick = r.bits(32);
  const timeScale = r.bits(32);
  if (r.overrun || numUnitsInTick === 0 || timeScale === 0) return null;
  return timeScale / (2 * numUnitsInTick);
}

/** 7.3.2.1.1.1: skips a scaling_list of `size` coefficients. */
function skipScalingList(r: RbspBitReader, size: number): void {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size && !r.overrun; j++) {
    if (next !== 0) next = (last + r.se() + 256) % 256;
    last = next === 0 ? last : next;
  }
}

/** The SPS whose RBSP (after the one-byte NAL unit header, emulation prevention removed) is `rbsp`, or null. */
export function parseH264Sps(rbsp: Uint8Array): H264SpsSummary | null {
  const r = new RbspBitReader(rbsp);
  const profileIdc = r.bits(8);
  const constraintFlags = r.bits(8);
  const levelIdc = r.bits(8);
  if (r.ue() > 31) return null; // seq_parameter_set_id
  let chromaFormatIdc = 1;
  let separateColourPlane = 0;
  if (HIGH_PROFILES.has(profileIdc)) {
    chromaFormatIdc = r.ue();
    if (chromaFormatIdc > 3) return null;
    if (chromaFormatIdc === 3) separateColourPlane = r.bit();
    if (r.ue() > 6 || r.ue() > 6) return null; // bit_depth_luma/chroma_minus8
    r.skip(1); // qpprime_y_zero_transform_bypass_flag
    if (r.bit() === 1) {
      // seq_scaling_matrix_present_flag
      const lists = chromaFormatIdc !== 3 ? 8 : 12;
      for (let i = 0; i < lists && !r.overrun; i++) if (r.bit() === 1) skipScalingList(r, i < 6 ? 16 : 64);
    }
  }
  if (r.ue() > 12) return null; // log2_max_frame_num_minus4
  const pocType = r.ue();
  if (pocType === 0) {
    if (r.ue() > 12) return null; // log2_max_pic_order_cnt_lsb_minus4
  } else if (pocType === 1) {
    r.skip(1); // delta_pic_order_always_zero_flag
    r.se(); // offset_for_non_ref_pic
    r.se(); // offset_for_top_to_bottom_field
    const cycle = r.ue();
    if (cycle > 255) return null;
    for (let i = 0; i < cycle && !r.overrun; i++) r.se();
  } else if (pocType !== 2) {
    return null;
  }
  r.ue(); // max_num_ref_frames
  r.skip(1); // gaps_in_frame_num_value_allowed_flag
  const widthMbs = r.ue() + 1;
  const heightMapUnits = r.ue() + 1;
  const frameMbsOnly = r.bit();
  if (frameMbsOnly === 0) r.skip(1); // mb_adaptive_frame_field_flag
  r.skip(1); // direct_8x8_inference_flag
  let crop = [0, 0, 0, 0];
  if (r.bit() === 1) crop = [r.ue(), r.ue(), r.ue(), r.ue()];
  if (r.overrun) return null;
  // 7.4.2.1.1: crop units from ChromaArrayType (0 when the colour planes are separate) and SubWidthC/SubHeightC (Table 6-1).
  const chromaArrayType = separateColourPlane === 1 ? 0 : chromaFormatIdc;
  const cropUnitX = chromaArrayType === 0 ? 1 : chromaFormatIdc === 3 ? 1 : 2;
  const cropUnitY = (chromaArrayType === 0 ? 1 : chromaFormatIdc === 1 ? 2 : 1) * (2 - frameMbsOnly);
  const width = widthMbs * 16 - cropUnitX * (crop[0] + crop[1]);
  const height = (2 - frameMbsOnly) * heightMapUnits * 16 - cropUnitY * (crop[2] + crop[3]);
  if (!isPlausiblePictureSize(width, height)) return null;
  const vuiPresent = r.bit() === 1;
  const frameRate = vuiPresent ? readVuiFrameRate(r) : null;
  return {
    width,
    height,
    profileIdc,
    levelIdc,
    level: levelName(profileIdc, constraintFlags, levelIdc),
    frameRate: r.overrun ? null : frameRate,
    fieldCoding: frameMbsOnly === 0,
    chromaFormatIdc,
    profile: profileName(profileIdc, constraintFlags),
  };
}

