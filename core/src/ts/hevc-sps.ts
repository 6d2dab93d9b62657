/**
 * The picture size and profile in an H.265 sequence parameter set (ITU-T
 * H.265 7.3.2.2.1), read as far as the conformance window. Never throws: a
 * truncated or implausible SPS gives null.
 */
import { isPlausiblePictureSize } from './picture-size.js';
import { RbspBitReader } from './rbsp-bit-reader.js';

export interface HevcSpsSummary {
  /** Luma samples inside the conformance window (7.4.3.2.1). */
  width: number;
  height: number;
  generalProfileIdc: number;
  generalLevelIdc: number;
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
function readProfileTierLevel(r: RbspBitReader, maxSubLayersMinus1: number): [number, number] {
  r.skip(3); // general_profile_space, general_tier_flag
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
  return [profileIdc, levelIdc];
}

/** The SPS whose RBSP (after the two-byte NAL unit header, emulation prevention removed) is `rbsp`, or null. */
export function parseHevcSps(rbsp: Uint8Array): HevcSpsSummary | null {
  const r = new RbspBitReader(rbsp);
  r.skip(4); // sps_video_parameter_set_id
  const maxSubLayersMinus1 = r.bits(3);
  if (maxSubLayersMinus1 > 6) return null; // 7.4.3.2.1: in 0..6
  r.skip(1); // sps_temporal_id_nesting_flag
  const [generalProfileIdc, generalLevelIdc] = readProfileTierLevel(r, maxSubLayersMinus1);
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
  return { width, height, generalProfileIdc, generalLevelIdc, chromaFormatIdc, profile };
}
