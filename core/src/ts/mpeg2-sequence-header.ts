/**
 * The picture size, frame rate, profile and level of MPEG-2 video (ISO/IEC
 * 13818-2): the sequence_header (6.2.2.1: 12-bit horizontal and vertical
 * size, frame_rate_code) and, when it follows, the sequence_extension
 * (6.2.2.3: the two high bits of each size, profile_and_level_indication,
 * chroma_format, frame_rate_extension). Never throws.
 */
import { isPlausiblePictureSize } from './picture-size.js';

export interface Mpeg2SequenceSummary {
  width: number;
  height: number;
  /** Table 8-2 name, e.g. 'Main'; absent without a sequence_extension (MPEG-1 syntax). */
  profile?: string;
  /** Table 8-3 name, e.g. 'Main', 'High 1440'; absent without a sequence_extension. */
  level?: string;
  /** profile_and_level_indication (6.3.3), as ffprobe gives the profile and level numbers from it. */
  profileAndLevel?: number;
  /** Table 6-5 chroma_format: '4:2:0', '4:2:2' or '4:4:4'; absent without a sequence_extension (MPEG-1: 4:2:0) or for the reserved 0. */
  chromaFormat?: string;
  /** Frames per second (6.3.3: frame_rate_value of Table 6-4 times (n + 1) / (d + 1) of the extension), or null for a reserved code. */
  frameRate: number | null;
}

/** Table 6-4: frame_rate_value of each frame_rate_code. */
const FRAME_RATES: readonly (number | null)[] = [null, 24000 / 1001, 24, 25, 30000 / 1001, 30, 50, 60000 / 1001, 60];

/** Table 8-7: the escaped profile_and_level_indication values (the 4:2:2 and multi-view profiles), as [profile, level]. */
const ESCAPED_PROFILE_LEVELS: Readonly<Record<number, readonly [string, string]>> = {
  0x82: ['4:2:2', 'High'],
  0x85: ['4:2:2', 'Main'],
  0x8a: ['Multi-view', 'High'],
  0x8b: ['Multi-view', 'High 1440'],
  0x8d: ['Multi-view', 'Main'],
  0x8e: ['Multi-view', 'Low'],
};

/** Table 6-5: chroma_format (0 is reserved). */
const CHROMA_FORMATS: readonly (string | undefined)[] = [undefined, '4:2:0', '4:2:2', '4:4:4'];

/** Table 8-3: level_identification (bits 3-0 of profile_and_level_indication). */
const LEVEL_NAMES: Readonly<Record<number, string>> = { 4: 'High', 6: 'High 1440', 8: 'Main', 10: 'Low' };

/** 6.2.1, Table 6-1: start code values. */
const SEQUENCE_HEADER_CODE = 0xb3;
const EXTENSION_START_CODE = 0xb5;
const PICTURE_START_CODE = 0x00;
/** Table 6-2: extension_start_code_identifier of the sequence extension. */
const SEQUENCE_EXTENSION_ID = 1;
/** Bytes of the sequence header after its start code up to the quantiser matrix flags (6.2.2.1). */
const SEQUENCE_HEADER_FIXED = 8;

/** Table 8-2: profile_identification (bits 6-4 of profile_and_level_indication). */
const PROFILE_NAMES: Readonly<Record<number, string>> = { 1: 'High', 2: 'Spatially Scalable', 3: 'SNR Scalable', 4: 'Main', 5: 'Simple' };

/** Position of the next start code prefix 00 00 01 in `bytes[from, to)`, or -1. */
function nextStartCode(bytes: Uint8Array, from: number, to: number): number {
  for (let i = from; i + 3 < to; i++) if (bytes[i] === 0 && bytes[i + 1] === 0 && bytes[i + 2] === 1) return i;
  return -1;
}

/** The first sequence header in `bytes` (a PES payload or an elementary stream), or null. */
export function parseMpeg2SequenceHeader(bytes: Uint8Array): Mpeg2SequenceSummary | null {
  const end = bytes.length;
  let at = nextStartCode(bytes, 0, end);
  while (at >= 0 && bytes[at + 3] !== SEQUENCE_HEADER_CODE) at = nextStartCode(bytes, at + 3, end);
  if (at < 0) return null;
  const p = at + 4;
  if (p + SEQUENCE_HEADER_FIXED > end) return null;
  let width = (bytes[p] << 4) | (bytes[p + 1] >> 4);
  let height = ((bytes[p + 1] & 0x0f) << 8) | bytes[p + 2];
  let frameRate = FRAME_RATES[bytes[p + 3] & 0x0f] ?? null;
  // marker_bit after bit_rate_value (6.2.2.1): the 6th byte's bit 5.
  if ((bytes[p + 6] & 0x20) === 0) return null;
  // The quantiser matrices may follow; the extension is the next start code that is one.
  let next = nextStartCode(bytes, p + SEQUENCE_HEADER_FIXED, end);
  let profile: string | undefined;
  let level: string | undefined;
  let profileAndLevelIndication: number | undefined;
  let chromaFormat: string | undefined;
  while (next >= 0 && next + 9 < end && bytes[next + 3] !== PICTURE_START_CODE && bytes[next + 3] !== SEQUENCE_HEADER_CODE) {
    const e = next + 4;
    if (bytes[next + 3] === EXTENSION_START_CODE && bytes[e] >> 4 === SEQUENCE_EXTENSION_ID) {
      const profileAndLevel = ((bytes[e] & 0x0f) << 4) | (bytes[e + 1] >> 4);
      // Bits: progressive_sequence (1), chroma_format (2), horizontal_size_extension (2), vertical_size_extension (2).
      chromaFormat = CHROMA_FORMATS[(bytes[e + 1] >> 1) & 0x03];
      width |= ((bytes[e + 1] & 0x01) << 13) | ((bytes[e + 2] >> 7) << 12);
      height |= ((bytes[e + 2] >> 5) & 0x03) << 12;
      const escaped = ESCAPED_PROFILE_LEVELS[profileAndLevel];
      profile = (profileAndLevel & 0x80) === 0 ? (PROFILE_NAMES[(profileAndLevel >> 4) & 0x07] ?? `profile ${(profileAndLevel >> 4) & 0x07}`) : (escaped?.[0] ?? 'escape');
      level = (profileAndLevel & 0x80) === 0 ? (LEVEL_NAMES[profileAndLevel & 0x0f] ?? `level ${profileAndLevel & 0x0f}`) : (escaped?.[1] ?? 'escape');
      profileAndLevelIndication = profileAndLevel;
      // Byte 5: low_delay (1), frame_rate_extension_n (2), frame_rate_extension_d (5).
      if (frameRate !== null) frameRate = (frameRate * (((bytes[e + 5] >> 5) & 0x03) + 1)) / ((bytes[e + 5] & 0x1f) + 1);
      break;
    }
    next = nextStartCode(bytes, next + 3, end);
  }
  if (!isPlausiblePictureSize(width, height)) return null;
  if (profile === undefined) return { width, height, frameRate };
  return { width, height, profile, level, profileAndLevel: profileAndLevelIndication, frameRate, ...(chromaFormat === undefined ? {} : { chromaFormat }) };
}
