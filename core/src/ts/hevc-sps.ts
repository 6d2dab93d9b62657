/**
 * The picture size, profile, tier, level and frame rate in an H.265
 * sequence parameter set (ITU-T H.265 7.3.2.2.1), read as far as the VUI's
 * timing information (E.2.1). Never throws: a truncated or implausible SPS
 * gives null; one cut short after the conformance window gives no frame rate.
 */
import { isPlausiblePictureSize } from './picture-size.js';
import { RbspBitReader } from './rbsp-bit-reader.js';

export interface HevcSpsSummary {
  /** Luma samples inside the conformance window (7.4.3.2.1). */
  width: number;
  height: number;
  generalProfileIdc: number;
  generalLevelIdc: number;
  /** A.4.1: general_level_idc is 30 times the level number, e.g. '3.1' for 93. */
  level: string;
  tier: 'Main' | 'High';
  /** Frames per second from the VUI's timing information (E.3.1: vui_time_scale / vui_num_units_in_tick), or null. */
  frameRate: number | null;
  /** 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4 (Table 6-1). */
  chromaFormatIdc: number;
  /** Annex A name, e.g. 'Main', 'Main 10'. */
  profile: string;
}

const PROFILE_NAMES: Readonly<Record<number, string>> = {
  1: 'Main',
  2: 'Main 10',
  3: 'Main Still Picture',
  4: 'Format Range Extensions',
  5: 'High Throughput',
  9: 'Screen Content Coding',
};

/**
 * 7.3.3 profile_tier_level(1, maxSubLayersMinus1): the general profile and
 * level, the sub-layers' skipped. Returns [general_profile_idc, general_level_idc].
 */
function readProfileTierLevel(r: RbspBitReader, maxSubLayersMinus1: number): [number, number, number] {
  r.skip(2); // general_profile_space
  const tierFlag = r.bit();
  const profileIdc = r.bits(5);
  // general_profile_compatibility_flag[32], 4 source flags, 43 constraint bits, 1 more bit.
  r.skip(32 + 4 + 43 + 1);
  const levelIdc = r.bits(8);
  const profilePresent: number[] = [];
  const levelPresent: number[] = [];
  for (let i = 0; i < maxSubLayersMinus1; i++) {
    profilePresent.push(r.bit());
    levelPresent.push(r.bit());
  }
  if (maxSubLayersMinus1 > 0) r.skip(2 * (8 - maxSubLayersMinus1)); // reserved_zero_2bits
  for (let i = 0; i < maxSubLayersMinus1; i++) {
    if (profilePresent[i] === 1) r.skip(88);
    if (levelPresent[i] === 1) r.skip(8);
  }
  return [profileIdc, levelIdc, tierFlag];
}

/** 7.3.4 scaling_list_data(): skipped. */
function skipScalingListData(r: RbspBitReader): void {
  for (let sizeId = 0; sizeId < 4; sizeId++) {
    for (let matrixId = 0; matrixId < 6 && !r.overrun; matrixId += sizeId === 3 ? 3 : 1) {
      if (r.bit() === 0) {
        r.ue(); // scaling_list_pred_matrix_id_delta
        continue;
      }
      const coefficients = Math.min(64, 1 << (4 + (sizeId << 1)));
      if (sizeId > 1) r.se(); // scaling_list_dc_coef_minus8
      for (let i = 0; i < coefficients && !r.overrun; i++) r.se();
    }
  }
}

/**
 * 7.3.7 st_ref_pic_set(stRpsIdx) as the SPS holds it: skipped, returning its
 * NumDeltaPocs (7.4.8), which a later set predicted from it needs.
 */
function skipShortTermRefPicSet(r: RbspBitReader, index: number, numDeltaPocs: number[]): number {
  if (index !== 0 && r.bit() === 1) {
    // inter_ref_pic_set_prediction_flag: predicted from the previous set (delta_idx_minus1 is only in slice headers).
    r.skip(1); // delta_rps_sign
    r.ue(); // abs_delta_rps_minus1
    let count = 0;
    const reference = numDeltaPocs[index - 1] ?? 0;
    for (let j = 0; j <= reference && !r.overrun; j++) {
      const used = r.bit();
      const useDelta = used === 1 ? 1 : r.bit();
      if (used === 1 || useDelta === 1) count++;
    }
    return count;
  }
  const negative = r.ue();
  const positive = r.ue();
  if (negative > 16 || positive > 16) {
    r.overrun = true; // 7.4.8: at most sps_max_dec_pic_buffering_minus1 (< 16) each
    return 0;
  }
  for (let i = 0; i < negative + positive && !r.overrun; i++) {
    r.ue(); // delta_poc_s0/s1_minus1
    r.skip(1); // used_by_curr_pic_s0/s1_flag
  }
  return negative + positive;
}

/** E.2.1 vui_parameters() as far as the timing information: frames per second or null. */
function readVuiFrameRate(r: RbspBitReader): number | null {
  if (r.bit() === 1 && r.bits(8) === 255) r.skip(32); // aspect_ratio_idc EXTENDED_SAR: sar_width, sar_height
  if (r.bit() === 1) r.skip(1); // overscan_appropriate_flag
  if (r.bit() === 1) {
    r.skip(4); // video_format, video_full_range_flag
    if (r.bit() === 1) r.skip(24); // colour_primaries, transfer_characteristics, matrix_coeffs
  }
  if (r.bit() === 1) {
    r.ue(); // chroma_sample_loc_type_top_field
    r.ue(); // chroma_sample_loc_type_bottom_field
  }
  r.skip(3); // neutral_chroma_indication_flag, field_seq_flag, frame_field_info_present_flag
  if (r.bit() === 1) for (let i = 0; i < 4; i++) r.ue(); // default display window offsets
  if (r.bit() === 0) return null; // vui_timing_info_present_flag
  const numUnitsInTick = r.bits(32);
  const timeScale = r.bits(32);
  if (r.overrun || numUnitsInTick === 0 || timeScale === 0) return null;
  return timeScale / numUnitsInTick;
}

/** 7.3.2.2.1 from the bit depths on to vui_parameters_present_flag: frames per second from the VUI, or null. */
function readFrameRateAfterWindow(r: RbspBitReader, maxSubLayersMinus1: number): number | null {
  r.ue(); // bit_depth_luma_minus8
  r.ue(); // bit_depth_chroma_minus8
  const log2MaxPocLsb = r.ue() + 4;
  if (log2MaxPocLsb > 16) return null;
  const orderingForEachLayer = r.bit();
  for (let i = orderingForEachLayer === 1 ? 0 : maxSubLayersMinus1; i <= maxSubLayersMinus1; i++) {
    r.ue(); // sps_max_dec_pic_buffering_minus1
    r.ue(); // sps_max_num_reorder_pics
    r.ue(); // sps_max_latency_increase_plus1
  }
  for (let i = 0; i < 6; i++) r.ue(); // coding block and transform block sizes, transform hierarchy depths
  if (r.bit() === 1 && r.bit() === 1) skipScalingListData(r); // scaling_list_enabled_flag, sps_scaling_list_data_present_flag
  r.skip(2); // amp_enabled_flag, sample_adaptive_offset_enabled_flag
  if (r.bit() === 1) {
    // pcm_enabled_flag: sample bit depths (4 + 4), two block sizes, loop filter flag
    r.skip(8);
    r.ue();
    r.ue();
    r.skip(1);
  }
  const sets = r.ue();
  if (sets > 64) return null; // 7.4.3.2.1: num_short_term_ref_pic_sets in 0..64
  const numDeltaPocs: number[] = [];
  for (let i = 0; i < sets && !r.overrun; i++) numDeltaPocs.push(skipShortTermRefPicSet(r, i, numDeltaPocs));
  if (r.bit() === 1) {
    // long_term_ref_pics_present_flag
    const longTerm = r.ue();
    if (longTerm > 32) return null;
    for (let i = 0; i < longTerm && !r.overrun; i++) r.skip(log2MaxPocLsb + 1); // lt_ref_pic_poc_lsb_sps, used_by_curr_pic_lt_sps_flag
  }
  r.skip(2); // sps_temporal_mvp_enabled_flag, strong_intra_smoothing_enabled_flag
  if (r.bit() === 0 || r.overrun) return null; // vui_parameters_present_flag
  const frameRate = readVuiFrameRate(r);
  return r.overrun ? null : frameRate;
}

/** A.4.1: the level number of general_level_idc (30 times it). */
function levelName(levelIdc: number): string {
  return String(Math.round((levelIdc / 30) * 10) / 10);
}

/** The SPS whose RBSP (after the two-byte NAL unit header, emulation prevention removed) is `rbsp`, or null. */
export function parseHevcSps(rbsp: Uint8Array): HevcSpsSummary | null {
  const r = new RbspBitReader(rbsp);
  r.skip(4); // sps_video_parameter_set_id
  const maxSubLayersMinus1 = r.bits(3);
  if (maxSubLayersMinus1 > 6) return null; // 7.4.3.2.1: in 0..6
  r.skip(1); // sps_temporal_id_nesting_flag
  const [generalProfileIdc, generalLevelIdc, tierFlag] = readProfileTierLevel(r, maxSubLayersMinus1);
  if (r.ue() > 15) return null; // sps_seq_parameter_set_id
  const chromaFormatIdc = r.ue();
  if (chromaFormatIdc > 3) return null;
  const separateColourPlane = chromaFormatIdc === 3 ? r.bit() : 0;
  const codedWidth = r.ue();
  const codedHeight = r.ue();
  let window = [0, 0, 0, 0];
  if (r.bit() === 1) window = [r.ue(), r.ue(), r.ue(), r.ue()];
  if (r.overrun) return null;
  // 7.4.3.2.1: offsets in chroma samples, SubWidthC/SubHeightC from Table 6-1 (1 when ChromaArrayType is 0).
  const chromaArrayType = separateColourPlane === 1 ? 0 : chromaFormatIdc;
  const subWidth = chromaArrayType === 1 || chromaArrayType === 2 ? 2 : 1;
  const subHeight = chromaArrayType === 1 ? 2 : 1;
  const width = codedWidth - subWidth * (window[0] + window[1]);
  const height = codedHeight - subHeight * (window[2] + window[3]);
  if (!isPlausiblePictureSize(width, height)) return null;
  const profile = PROFILE_NAMES[generalProfileIdc] ?? `general_profile_idc ${generalProfileIdc}`;
  const frameRate = readFrameRateAfterWindow(r, maxSubLayersMinus1);
  return {
    width,
    height,
    generalProfileIdc,
    generalLevelIdc,
    level: levelName(generalLevelIdc),
    tier: tierFlag === 1 ? 'High' : 'Main',
    frameRate,
    chromaFormatIdc,
    profile,
  };
}
