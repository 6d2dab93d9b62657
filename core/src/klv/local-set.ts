/**
 * Local sets (SMPTE ST 336 section 6.4 "Local Sets", MISB ST 0601 section 6.2):
 * a run of items, each a BER-OID tag, a BER length and that many value bytes.
 * Parsing is total: it stops at the first item that cannot be framed and
 * reports it, keeping every item framed before it.
 */
import { readBerLength } from './ber-length.js';
import { readBerOid } from './ber-oid.js';
import { klvError, type KlvDecodeError } from './klv-error.js';

export interface LocalSetItem {
  readonly tag: number;
  /** Absolute offset of the tag's first byte. */
  readonly tagOffset: number;
  /** Absolute offset of the value's first byte. */
  readonly valueOffset: number;
  /** Value length in bytes; the value is bytes[valueOffset, valueOffset + length). */
  readonly length: number;
}

export interface ParsedLocalSet {
  readonly items: LocalSetItem[];
  readonly errors: KlvDecodeError[];
}

/**
 * Frames the local-set items in `bytes[start, end)`. Offsets are absolute.
 * An item whose length runs past `end` is an error at its length field; no
 * item after it is trusted, since the framing is lost.
 */
export function parseLocalSet(bytes: Uint8Array, start: number, end: number): ParsedLocalSet {
  const items: LocalSetItem[] = [];
  const errors: KlvDecodeError[] = [];
  const limit = Math.min(end, bytes.length);
  let pos = start;
  while (pos < limit) {
    const tagOffset = pos;
    // Fast path: a one-byte tag and a short-form length, the common case, with no temporary objects.
    if (pos + 2 <= limit && bytes[pos] < 0x80 && bytes[pos + 1] < 0x80) {
      const shortLength = bytes[pos + 1];
      if (pos + 2 + shortLength <= limit) {
        items.push({ tag: bytes[pos], tagOffset, valueOffset: pos + 2, length: shortLength });
        pos += 2 + shortLength;
        continue;
      }
    }
    const tag = readBerOid(bytes, pos, limit);
    if (!tag.ok) {
      errors.push(tag);
      break;
    }
    pos += tag.size;
    const len = readBerLength(bytes, pos, limit);
    if (!len.ok) {
      errors.push(klvError(`tag ${tag.value}: ${len.message}`, len.byteOffset));
      break;
    }
    const valueOffset = pos + len.size;
    if (valueOffset + len.length > limit) {
      errors.push(
        klvError(`tag ${tag.value}: value of ${len.length} bytes runs past the end of the set (${limit - valueOffset} left)`, pos),
      );
      break;
    }
    items.push({ tag: tag.value, tagOffset, valueOffset, length: len.length });
    pos = valueOffset + len.length;
  }
  return { items, errors };
}
