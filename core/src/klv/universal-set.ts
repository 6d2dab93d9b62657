/**
 * Universal sets (SMPTE ST 336 section 6.2 "Universal Sets", also the
 * legacy MISB EG 0104 layout): a run of items, each a full 16-byte
 * universal label key, a BER length and the value. Parsing is total: it
 * stops at the first item that cannot be framed and reports it.
 */
import { readBerLength } from './ber-length.js';
import { bytesToHex } from './hex.js';
import { klvError, type KlvDecodeError } from './klv-error.js';

/** SMPTE ST 336 section 4: every universal label key is 16 bytes long. */
export const UNIVERSAL_KEY_SIZE = 16;

export interface UniversalSetItem {
  /** The item's 16-byte key, lower-case hex. */
  readonly keyHex: string;
  /** Absolute offset of the key's first byte. */
  readonly keyOffset: number;
  /** Absolute offset of the value's first byte. */
  readonly valueOffset: number;
  readonly length: number;
}

export interface ParsedUniversalSet {
  readonly items: UniversalSetItem[];
  readonly errors: KlvDecodeError[];
}

/** Frames the universal-set items in `bytes[start, end)`. Offsets are absolute. */
export function parseUniversalSet(bytes: Uint8Array, start: number, end: number): ParsedUniversalSet {
  const items: UniversalSetItem[] = [];
  const errors: KlvDecodeError[] = [];
  const limit = Math.min(end, bytes.length);
  let pos = start;
  while (pos < limit) {
    const keyOffset = pos;
    if (pos + UNIVERSAL_KEY_SIZE > limit) {
      errors.push(klvError(`universal key truncated: ${limit - pos} of 16 bytes`, pos));
      break;
    }
    pos += UNIVERSAL_KEY_SIZE;
    const len = readBerLength(bytes, pos, limit);
    if (!len.ok) {
      errors.push(len);
      break;
    }
    const valueOffset = pos + len.size;
    if (valueOffset + len.length > limit) {
      errors.push(klvError(`value of ${len.length} bytes runs past the end of the set (${limit - valueOffset} left)`, pos));
      break;
    }
    items.push({ keyHex: bytesToHex(bytes, keyOffset, keyOffset + UNIVERSAL_KEY_SIZE), keyOffset, valueOffset, length: len.length });
    pos = valueOffset + len.length;
  }
  return { items, errors };
}
