/**
 * The shapes every KLV set decoder in this folder returns: one decoded item
 * and one problem found while decoding. They are plain JSON-able data (no
 * bigint, no class instances) so they can be stored as observation rows and
 * sent over the wire unchanged.
 */

export interface DecodedItem {
  tag: number;
  name: string;
  units: string | null;
  /** The value bytes exactly as received, lower-case hex. */
  rawHex: string;
  /** number | string | JSON-able object; null when the bytes could not be decoded (see `error`). */
  value: unknown;
  deprecated: boolean;
  /** Why the value could not be decoded, when it could not. */
  error?: string;
}

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
