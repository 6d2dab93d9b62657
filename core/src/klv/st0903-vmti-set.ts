/**
 * The MISB ST 0903.6 VMTI Local Set without its key: the value of ST 0601
 * tag 74, or the value of a standalone VMTI packet. Decoding is total.
 */
import type { DecodedItem, KlvProblem } from './decoded-item.js';
import { KlvEncodeError } from './klv-encode-error.js';
import type { NestedSetDelegate } from './nested-local-set-codec.js';
import { decodeTaggedSet, encodeTaggedSet, type TaggedItemInput } from './st0903-tagged-set.js';
import { ST0903_VMTI_TAGS } from './st0903-vmti-tags.js';

/** ST 0903.6 tag 4: the VMTI LS version, which decides how the real-valued items are encoded. */
export const ST0903_VERSION_TAG = 4;

export interface St0903DecodeOptions {
  /**
   * The VMTI LS version to assume when the set has no version item (tag 4):
   * typically the version the same stream carried in an earlier set. Some
   * encoders send tag 4 only now and then, and before ST 0903.4 the real
   * values are not IMAPB, so without the version they cannot be read right.
   */
  readonly versionHint?: number;
}

export interface St0903LocalSet {
  readonly items: DecodedItem[];
  readonly problems: KlvProblem[];
}

/**
 * Decodes the VMTI local set in `bytes[start, end)` (offsets absolute).
 * Nested VTarget packs, Algorithm and Ontology sets are decoded in place;
 * every problem, nested ones included, is in `problems` with its byte
 * offset. A missing version item is reported; `options.versionHint` then
 * decides how the real values are read (otherwise each one is read as
 * IMAPB unless only the legacy form fits its length). Never throws.
 */
export function decodeSt0903LocalSet(bytes: Uint8Array, start: number, end: number, options: St0903DecodeOptions = {}): St0903LocalSet {
  const problems: KlvProblem[] = [];
  const context = { version: options.versionHint ?? null, problems, path: '' };
  const items = decodeTaggedSet(bytes, start, Math.min(end, bytes.length), ST0903_VMTI_TAGS, context, ST0903_VERSION_TAG);
  return { items, problems };
}

/**
 * Encodes VMTI items, in the order given, as a local set without key (what
 * ST 0601 tag 74 carries). VTarget Series values are arrays of
 * `{ targetId, items }`; a Uint8Array value is written as it is.
 */
export function encodeSt0903LocalSet(items: readonly TaggedItemInput[]): Uint8Array {
  return encodeTaggedSet(items, ST0903_VMTI_TAGS);
}

/**
 * ST 0601 tag 74 carries a VMTI LS without its key (ST 0601 nested sets):
 * this plugs the VMTI decoder into the ST 0601 item. The item's value is
 * `{ items, problems }`; it encodes back from that or from an item array.
 */
export const st0903NestedSet: NestedSetDelegate = {
  decode: (bytes, start, end) => decodeSt0903LocalSet(bytes, start, end),
  encode(value) {
    const items = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? (value as { items?: unknown }).items : undefined;
    if (!Array.isArray(items)) throw new KlvEncodeError('a VMTI set needs { items } or an array of { tag, value } items');
    return encodeSt0903LocalSet(items as TaggedItemInput[]);
  },
};
