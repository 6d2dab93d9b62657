/**
 * The picture size and profile of MPEG-2 video (ISO/IEC 13818-2): the
 * sequence_header (6.2.2.1: 12-bit horizontal and vertical size) and, when
 * it follows, the sequence_extension (6.2.2.3: the two high bits of each
 * size, and profile_and_level_indication). Never throws.
 */
import { isPlausiblePictureSize } from './picture-size.js';

export interface Mpeg2SequenceSummary {
  width: number;
  height: number;
  /** Table 8-2 name, e.g. 'Main'; absent without a sequence_extension (MPEG-1 syntax). */
  profile?: string;
}

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
  // marker_bit after bit_rate_value (6.2.2.1): the 6th byte's bit 5.
  if ((bytes[p + 6] & 0x20) === 0) return null;
  // The quantiser matrices may follow; the extension is the next start code that is one.
  let next = nextStartCode(bytes, p + SEQUENCE_HEADER_FIXED, end);
  let profile: string | undefined;
  while (next >= 0 && next + 9 < end && bytes[next + 3] !== PICTURE_START_CODE && bytes[next + 3] !== SEQUENCE_HEADER_CODE) {
    const e = next + 4;
    if (bytes[next + 3] === EXTENSION_START_CODE && bytes[e] >> 4 === SEQUENCE_EXTENSION_ID) {
      const profileAndLevel = ((bytes[e] & 0x0f) << 4) | (bytes[e + 1] >> 4);
      // Bits: progressive_sequence (1), chroma_format (2), horizontal_size_extension (2), vertical_size_extension (2).
      width |= ((bytes[e + 1] & 0x01) << 13) | ((bytes[e + 2] >> 7) << 12);
      height |= ((bytes[e + 2] >> 5) & 0x03) << 12;
      profile = (profileAndLevel & 0x80) === 0 ? (PROFILE_NAMES[(profileAndLevel >> 4) & 0x07] ?? `profile ${(profileAndLevel >> 4) & 0x07}`) : 'escape';
      break;
    }
    next = nextStartCode(bytes, next + 3, end);
  }
  if (!isPlausiblePictureSize(width, height)) return null;
  return profile === undefined ? { width, height } : { width, height, profile };
}
