/**
 * Items whose value is a whole local set of another MISB document (ST 0601
 * items 48 ST 0102, 73 ST 0806, 74 ST 0903, 95 ST 1206, 97 ST 1002, 98 ST
 * 1601, 99 ST 1602, 100/101 ST 1607). ST 0601 section 6.6: the nested set
 * is carried without its 16-byte key and outer length, so its value is just
 * its items. When a decoder for the document exists it is plugged in;
 * otherwise the set is framed generically into `{ tag, rawHex }` items, so
 * nothing is lost and nothing throws.
 */
import { encodeBerLength } from './ber-length.js';
import { encodeBerOid } from './ber-oid.js';
import { bytesToHex, hexToBytes } from './hex.js';
import { KlvEncodeError } from './klv-encode-error.js';
import { parseLocalSet } from './local-set.js';
import { opaqueBytesOf } from './opaque-bytes-codec.js';
import type { ValueCodec } from './value-codec.js';

export interface FramedNestedItem {
  readonly tag: number;
  readonly rawHex: string;
}

/** The generic decoding of a nested set this library has no decoder for. */
export interface FramedNestedSet {
  /** The document defining the set, e.g. "MISB ST 0806". */
  readonly standard: string;
  readonly decoded: false;
  readonly items: FramedNestedItem[];
  /** Framing errors: where the nested set stopped being readable. */
  readonly errors: { readonly message: string; readonly byteOffset: number }[];
}

/** A decoder for the document's local set, given the set's items `bytes[start, end)`. */
export interface NestedSetDelegate {
  decode(bytes: Uint8Array, start: number, end: number): unknown;
  encode(value: unknown): Uint8Array;
}

/** Frames `bytes[start, end)` as generic local-set items. */
export function frameNestedSet(standard: string, bytes: Uint8Array, start: number, end: number): FramedNestedSet {
  const parsed = parseLocalSet(bytes, start, end);
  return {
    standard,
    decoded: false,
    items: parsed.items.map((item) => ({ tag: item.tag, rawHex: bytesToHex(bytes, item.valueOffset, item.valueOffset + item.length) })),
    errors: parsed.errors.map((e) => ({ message: e.message, byteOffset: e.byteOffset })),
  };
}

/** Re-encodes a framed set (or `{ hex }` of the whole value). */
export function encodeFramedNestedSet(value: unknown): Uint8Array {
  const items = typeof value === 'object' && value !== null ? (value as { items?: unknown }).items : undefined;
  if (!Array.isArray(items)) return opaqueBytesOf(value);
  const parts: Uint8Array[] = [];
  for (const item of items as unknown[]) {
    const { tag, rawHex } = (item ?? {}) as { tag?: unknown; rawHex?: unknown };
    const valueBytes = typeof rawHex === 'string' ? hexToBytes(rawHex) : null;
    if (typeof tag !== 'number' || !valueBytes) throw new KlvEncodeError(`nested item needs { tag, rawHex }, got ${JSON.stringify(item)}`);
    parts.push(encodeBerOid(tag), encodeBerLength(valueBytes.length), valueBytes);
  }
  return concatBytes(parts);
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.length;
  const out = new Uint8Array(total);
  let pos = 0;
  for (const p of parts) {
    out.set(p, pos);
    pos += p.length;
  }
  return out;
}

/** A nested local set item of `standard`, decoded by `delegate` when given. */
export function nestedLocalSetCodec(standard: string, delegate?: NestedSetDelegate): ValueCodec {
  return {
    valueType: `local set (${standard})`,
    length: { kind: 'variable' },
    range: null,
    resolution: null,
    decode: delegate
      ? (bytes: Uint8Array, start: number, end: number) => delegate.decode(bytes, start, end)
      : (bytes: Uint8Array, start: number, end: number) => frameNestedSet(standard, bytes, start, end),
    encode(value: unknown): Uint8Array {
      const framed = typeof value === 'object' && value !== null && (value as { decoded?: unknown }).decoded === false;
      return delegate && !framed && !(value instanceof Uint8Array) ? delegate.encode(value) : encodeFramedNestedSet(value);
    },
  };
}
