/**
 * The shapes every KLV set decoder in this folder returns: one decoded item
 * and one problem found while decoding. They are plain JSON-able data (no
 * bigint, no class instances) so they can be stored as observation rows and
 * sent over the wire unchanged.
 */
import type { KlvItem } from '../kernel/observations.js';

/** A decoded item: the same shape as the `items` of a metadata-packet observation. */
export type DecodedItem = KlvItem;

export type KlvProblemType =
  | 'raw-decode-error'
  | 'unknown-key'
  | 'checksum-error'
  | 'unknown-tag'
  | 'duplicate-tag'
  | 'missing-mandatory'
  | 'bad-item-length';

export interface KlvProblem {
  type: KlvProblemType;
  /** The item's tag, or null for problems of the whole packet. */
  tag: number | null;
  /** Absolute offset of the offending byte in the buffer handed to the decoder. */
  byteOffset: number;
  message: string;
}
