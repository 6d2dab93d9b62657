/**
 * The value of an ST 0601 item read straight from its bytes in a packet's
 * triplet, for the columnar exports: what decodeSt0601ItemInto gives as the
 * item's `value`, without the item around it (its hex as a string, its
 * object). An item the decoder marks with an error (a tag ST 0601 does not
 * define, a length its table does not allow, a value it cannot decode) has
 * none here: the caller decodes the item, as the decoder would give it.
 */
import type { LocalSetItem } from '../../klv/local-set.js';
import { st0601Item } from '../../klv/st0601-items.js';
import { lengthAllowed, ValueDecodeFailure } from '../../klv/value-codec.js';

/** Given for an item the decoder would mark with an error. */
export const NOT_DECODED: unique symbol = Symbol('not decoded');

/** The decoded value of the item framed as `span` in `bytes`, or NOT_DECODED. */
export function st0601FramedValue(bytes: Uint8Array, span: LocalSetItem): unknown {
  return st0601ValueAt(bytes, span.tag, span.valueOffset, span.length);
}

/** The decoded value of item `tag` whose value is `bytes[valueOffset, valueOffset + length)`, or NOT_DECODED. */
export function st0601ValueAt(bytes: Uint8Array, tag: number, valueOffset: number, length: number): unknown {
  const spec = st0601Item(tag);
  if (spec === undefined || !lengthAllowed(spec.length, length)) return NOT_DECODED;
  const value = spec.codec.decode(bytes, valueOffset, valueOffset + length);
  return value instanceof ValueDecodeFailure ? NOT_DECODED : value;
}
