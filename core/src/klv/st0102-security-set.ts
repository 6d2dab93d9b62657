/**
 * The MISB ST 0102 Security Metadata Local Set: nested as the value of
 * ST 0601 tag 48, or standalone under its universal key
 * 06 0E 2B 34 02 03 01 01 0E 01 03 03 02 00 00 00 (ST 0102.12).
 * The standalone form has no checksum. Decoding is total.
 */
import { encodeBerLength, readBerLength } from './ber-length.js';
import type { DecodedItem, KlvProblem } from './decoded-item.js';
import { KlvEncodeError } from './klv-encode-error.js';
import { concatBytes, type NestedSetDelegate } from './nested-local-set-codec.js';
import { ST0102_TAGS } from './st0102-security-tags.js';
import { decodeTaggedSet, encodeTaggedSet, type TaggedItemInput } from './st0903-tagged-set.js';
import { lookupUniversalKey, universalKey } from './universal-key.js';

/** Tag 22: the ST 0102 revision the set follows (e.g. 12 for ST 0102.12). */
export const ST0102_VERSION_TAG = 22;

/**
 * The object country items (tags 12 and 13) are mandatory in current
 * revisions; ST 0102.5 and earlier let them be left out (an absent coding
 * method then meant GENC two-letter codes), as real version 5 streams do.
 */
const OBJECT_COUNTRY_MANDATORY_FROM_VERSION = 6;

const KEY_SIZE = 16;

export interface St0102LocalSet {
  readonly items: DecodedItem[];
  readonly problems: KlvProblem[];
}

export interface St0102Packet extends St0102LocalSet {
  /** Offset one past the packet as its length frames it (clamped to `end`). */
  readonly packetEnd: number;
}

/**
 * Decodes the security local set in `bytes[start, end)` (absolute offsets):
 * the value of ST 0601 tag 48. Enumerations decode to `{ code, label }`,
 * text to strings, the deprecated UMID and designator items to hex. Never
 * throws.
 */
export function decodeSt0102LocalSet(bytes: Uint8Array, start: number, end: number): St0102LocalSet {
  const problems: KlvProblem[] = [];
  const items = decodeTaggedSet(bytes, start, Math.min(end, bytes.length), ST0102_TAGS, { version: null, problems, path: 'ST 0102' }, ST0102_VERSION_TAG);
  const version = items.find((item) => item.tag === ST0102_VERSION_TAG)?.value;
  if (typeof version === 'number' && version >= OBJECT_COUNTRY_MANDATORY_FROM_VERSION) {
    for (const tag of [12, 13]) {
      if (!items.some((item) => item.tag === tag)) {
        problems.push({
          type: 'missing-mandatory',
          tag,
          byteOffset: start,
          message: `ST 0102: mandatory ${ST0102_TAGS.get(tag)?.name} (tag ${tag}) is missing (required since ST 0102.${OBJECT_COUNTRY_MANDATORY_FROM_VERSION}, set is version ${version})`,
        });
      }
    }
  }
  return { items, problems };
}

/**
 * Decodes a standalone ST 0102 local set packet (key, BER length, set)
 * starting at `start`. A different key is reported as 'unknown-key' and the
 * value is still decoded as ST 0102. Never throws.
 */
export function decodeSt0102Packet(bytes: Uint8Array, start: number, end: number): St0102Packet {
  const limit = Math.min(end, bytes.length);
  const problems: KlvProblem[] = [];
  if (start + KEY_SIZE >= limit) {
    problems.push({ type: 'raw-decode-error', tag: null, byteOffset: start, message: `ST 0102 packet truncated: ${Math.max(0, limit - start)} bytes, no room for key and length` });
    return { items: [], problems, packetEnd: limit };
  }
  if (lookupUniversalKey(bytes, start)?.entry.name !== 'st0102-security-ls') {
    problems.push({ type: 'unknown-key', tag: null, byteOffset: start, message: 'key is not the ST 0102 security local set key' });
  }
  const len = readBerLength(bytes, start + KEY_SIZE, limit);
  if (!len.ok) {
    problems.push({ type: 'raw-decode-error', tag: null, byteOffset: len.byteOffset, message: len.message });
    return { items: [], problems, packetEnd: limit };
  }
  const valueStart = start + KEY_SIZE + len.size;
  let valueEnd = valueStart + len.length;
  if (valueEnd > limit) {
    problems.push({ type: 'raw-decode-error', tag: null, byteOffset: start + KEY_SIZE, message: `ST 0102 packet length ${len.length} runs past the data (${limit - valueStart} bytes left)` });
    valueEnd = limit;
  }
  const set = decodeSt0102LocalSet(bytes, valueStart, valueEnd);
  problems.push(...set.problems);
  return { items: set.items, problems, packetEnd: valueEnd };
}

/**
 * Encodes security items, in the order given, as a local set without key
 * (what ST 0601 tag 48 carries). Enumerations take a code or `{ code }`;
 * Object Country Codes are written as UTF-16BE (ST 0102.11 and later).
 */
export function encodeSt0102LocalSet(items: readonly TaggedItemInput[]): Uint8Array {
  return encodeTaggedSet(items, ST0102_TAGS);
}

/** Encodes a standalone ST 0102 packet: key, BER length, local set. */
export function encodeSt0102Packet(items: readonly TaggedItemInput[]): Uint8Array {
  const set = encodeSt0102LocalSet(items);
  return concatBytes([universalKey('st0102-security-ls').bytes, encodeBerLength(set.length), set]);
}

/**
 * ST 0601 tag 48 carries the security LS without its key: this plugs the
 * ST 0102 decoder into the ST 0601 item. The item's value is
 * `{ items, problems }`; it encodes back from that or from an item array.
 */
export const st0102NestedSet: NestedSetDelegate = {
  decode: (bytes, start, end) => decodeSt0102LocalSet(bytes, start, end),
  encode(value) {
    const items = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? (value as { items?: unknown }).items : undefined;
    if (!Array.isArray(items)) throw new KlvEncodeError('a security set needs { items } or an array of { tag, value } items');
    return encodeSt0102LocalSet(items as TaggedItemInput[]);
  },
};
