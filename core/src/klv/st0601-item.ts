/**
 * Decoding and encoding of single MISB ST 0601 item values through the item
 * table (ST 0601.17 section 8). Decoding is total: an unknown tag, a length
 * the item does not allow, or a pack that cannot be read gives a
 * {@link DecodedItem} with `value: null`, the raw hex and an `error`.
 */
import type { DecodedItem, KlvProblem } from './decoded-item.js';
import { bytesToHex } from './hex.js';
import { KlvEncodeError } from './klv-encode-error.js';
import { opaqueBytesOf } from './opaque-bytes-codec.js';
import { st0601Item } from './st0601-items.js';
import { describeLengthRule, lengthAllowed, ValueDecodeFailure } from './value-codec.js';

/**
 * Decodes item `tag` whose value is `bytes[start, end)`. When it cannot be
 * decoded and `problems` is given, the problem is appended there: 'unknown-tag'
 * at `tagOffset`, 'bad-item-length' at the value, 'raw-decode-error' at the
 * offending byte. The packet decoder's hot path: no allocation beyond the item.
 */
export function decodeSt0601ItemInto(
  tag: number,
  bytes: Uint8Array,
  start: number,
  end: number,
  tagOffset: number,
  problems: KlvProblem[] | null,
): DecodedItem {
  const rawHex = bytesToHex(bytes, start, end);
  const spec = st0601Item(tag);
  if (!spec) {
    const error = `tag ${tag} is not defined by MISB ST 0601`;
    problems?.push({ type: 'unknown-tag', tag, byteOffset: tagOffset, message: error });
    return { tag, name: `Unknown item ${tag}`, units: null, rawHex, value: null, deprecated: false, error };
  }
  const length = end - start;
  if (!lengthAllowed(spec.length, length)) {
    const error = `length ${length} is not allowed: ${spec.name} is ${describeLengthRule(spec.length)}`;
    problems?.push({ type: 'bad-item-length', tag, byteOffset: start, message: `${spec.name}: ${error}` });
    return { tag, name: spec.name, units: spec.units, rawHex, value: null, deprecated: spec.deprecated, error };
  }
  const value = spec.codec.decode(bytes, start, end);
  if (value instanceof ValueDecodeFailure) {
    problems?.push({ type: 'raw-decode-error', tag, byteOffset: value.byteOffset, message: `${spec.name}: ${value.message}` });
    return { tag, name: spec.name, units: spec.units, rawHex, value: null, deprecated: spec.deprecated, error: value.message };
  }
  return { tag, name: spec.name, units: spec.units, rawHex, value, deprecated: spec.deprecated };
}

/** Decodes item `tag` whose value is `bytes[start, end)` (ST 0601 section 8). Never throws. */
export function decodeSt0601Item(tag: number, bytes: Uint8Array, start: number, end: number): DecodedItem {
  const from = Math.max(0, start);
  return decodeSt0601ItemInto(tag, bytes, from, Math.max(from, Math.min(end, bytes.length)), from, null);
}

/**
 * The value bytes of item `tag` (no tag, no length). `value` has the shape
 * the decoder returns. A Uint8Array is written as it is, for any tag, and an
 * unknown tag accepts `{ hex }`, so tests and the fault generator can write
 * malformed items on purpose. Throws {@link KlvEncodeError} for a value the
 * item cannot represent.
 */
export function encodeSt0601Item(tag: number, value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  const spec = st0601Item(tag);
  if (!spec) {
    try {
      return opaqueBytesOf(value);
    } catch {
      throw new KlvEncodeError(`tag ${tag} is not defined by MISB ST 0601; give its value as bytes or { hex }`);
    }
  }
  return spec.codec.encode(value);
}
