/**
 * The value types of MISB ST 0903.6 items (and of the ST 0102 items, which
 * share them): unsigned integers of variable length, UTF-8 text,
 * enumerations, opaque bytes, UUIDs, colours, FPA indices, and real numbers
 * in MISB ST 1201 IMAPB form (ST 0903.4 and later) or, for VMTI LS versions
 * before 4, as linearly mapped integers. The plain types come from the
 * shared value codecs of this folder, adapted to the tag-table contract.
 */
import { encodeUnsigned, readUnsigned, requireNumber } from './big-endian-integer.js';
import { enumerationCodec } from './enumeration-codec.js';
import { imapbCodec } from './imapb-codec.js';
import { fixedIntegerCodec, variableIntegerCodec } from './integer-codec.js';
import { KlvEncodeError } from './klv-encode-error.js';
import { stringCodec } from './klv-string.js';
import { opaqueBytesCodec } from './opaque-bytes-codec.js';
import { badLength, decodeOk, decodeOkWithLengthWarning, type TagCodec, type TagDecodeContext } from './st0903-tagged-set.js';
import { uuidTextToBytes } from './uuid-text.js';
import { describeLengthRule, lengthAllowed, type ValueCodec, ValueDecodeFailure } from './value-codec.js';

/** ST 0903.4 is the first version whose real-valued items are IMAPB. */
export const ST0903_FIRST_IMAPB_VERSION = 4;

/** A shared value codec under the tag-table contract: its length rule is checked first. */
export function fromValueCodec(codec: ValueCodec): TagCodec {
  return {
    decode(bytes, start, end) {
      if (!lengthAllowed(codec.length, end - start)) return badLength(`length ${end - start}, expected ${describeLengthRule(codec.length)}`);
      const value = codec.decode(bytes, start, end);
      return value instanceof ValueDecodeFailure ? { ok: false, type: 'raw-decode-error', message: value.message } : decodeOk(value);
    },
    encode: (value) => codec.encode(value),
  };
}

/** ST 0903.6 "uint": big-endian, as few bytes as the value needs, 1 to `maxLength` bytes (exactly `maxLength` when `fixed`). */
export function uintCodec(maxLength: number, fixed = false): TagCodec {
  return fromValueCodec(fixed || maxLength === 1 ? fixedIntegerCodec(maxLength, false) : variableIntegerCodec(maxLength, false));
}

/**
 * MISB ST 0603 precision time stamp: eight bytes of microseconds since 1970
 * (ST 0903.6 tag 2, VTracker tags 3 and 4). Some encoders drop the leading
 * zero byte; such a value is still read, and its length reported.
 */
export const timestampCodec: TagCodec = {
  decode(bytes, start, end) {
    const length = end - start;
    if (length < 1 || length > 8) return badLength(`length ${length}, expected 8 bytes`);
    const micros = readUnsigned(bytes, start, length);
    return length === 8 ? decodeOk(micros) : decodeOkWithLengthWarning(micros, `length ${length}, expected 8 bytes (value read as a shorter integer)`);
  },
  encode: (value) => encodeUnsigned(requireNumber(value, 'time stamp'), 8),
};

/** UTF-8 text of any length; invalid sequences decode to U+FFFD rather than failing. */
export const utf8Codec: TagCodec = fromValueCodec(stringCodec(0, Number.MAX_SAFE_INTEGER));

/** Opaque bytes, decoded as `{ hex }`; of exactly `length` bytes when given. */
export function bytesCodec(length?: number): TagCodec {
  return fromValueCodec(opaqueBytesCodec('bytes', length === undefined ? { kind: 'variable' } : { kind: 'fixed', bytes: length }));
}

/** One-byte enumeration, decoded as `{ code, name }`; a code outside `names` is named "unknown (n)". */
export function enumCodec(names: ReadonlyMap<number, string>): TagCodec {
  const dense: string[] = [];
  for (const [code, name] of names) {
    while (dense.length < code) dense.push(`unknown (${dense.length})`);
    dense[code] = name;
  }
  return fromValueCodec(enumerationCodec(dense));
}

/** RFC 4122 UUID in 16 bytes, shown in its 8-4-4-4-12 text form (ST 0903.6 VTracker tag 1). */
export const uuidCodec: TagCodec = {
  decode(bytes, start, end) {
    if (end - start !== 16) return badLength(`length ${end - start}, expected 16`);
    let text = '';
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) text += '-';
      const b = bytes[start + i];
      text += (b < 16 ? '0' : '') + b.toString(16);
    }
    return decodeOk(text);
  },
  encode: uuidTextToBytes,
};

function byteOf(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 255) {
    throw new KlvEncodeError(`${what} must be an integer in [0, 255], got ${JSON.stringify(value)}`);
  }
  return value;
}

/** ST 0903.6 VTarget tag 8: the dominant colour as three bytes, red, green, blue. */
export const rgbCodec: TagCodec = {
  decode(bytes, start, end) {
    if (end - start !== 3) return badLength(`length ${end - start}, expected 3`);
    return decodeOk({ red: bytes[start], green: bytes[start + 1], blue: bytes[start + 2] });
  },
  encode(value) {
    const { red, green, blue } = (value ?? {}) as { red?: unknown; green?: unknown; blue?: unknown };
    return Uint8Array.of(byteOf(red, 'red'), byteOf(green, 'green'), byteOf(blue, 'blue'));
  },
};

/** ST 0903.6 VTarget tag 21: Focal Plane Array index, one byte row then one byte column. */
export const fpaIndexCodec: TagCodec = {
  decode(bytes, start, end) {
    if (end - start !== 2) return badLength(`length ${end - start}, expected 2`);
    return decodeOk({ row: bytes[start], column: bytes[start + 1] });
  },
  encode(value) {
    const { row, column } = (value ?? {}) as { row?: unknown; column?: unknown };
    return Uint8Array.of(byteOf(row, 'FPA row'), byteOf(column, 'FPA column'));
  },
};

/** How a real value was written before ST 0903.4 (its "legacy" form). */
export interface St0903LegacyMapping {
  /**
   * 'unsigned': min + v * (max - min) / (2^(8 maxLength) - 1);
   * 'signed-offset': v * max / (2^23 - 1) with v a signed integer of up to
   * three bytes and -2^23 the error indicator (the latitude and longitude
   * offsets of ST 0903.3).
   */
  readonly kind: 'unsigned' | 'signed-offset';
  readonly minLength: number;
  readonly maxLength: number;
}

/** Whether the enclosing VMTI set predates IMAPB (ST 0903.3 and earlier). */
export function usesLegacyMapping(context: TagDecodeContext): boolean {
  return context.version !== null && context.version < ST0903_FIRST_IMAPB_VERSION;
}

/**
 * Whether a real value of `size` bytes is read in its legacy form: the set
 * says it is older than ST 0903.4, or the set has no version item (a fault
 * reported on its own) and the size fits only the legacy form.
 */
function readsAsLegacy(context: TagDecodeContext, size: number, imapbLength: number, legacy: St0903LegacyMapping): boolean {
  if (context.version !== null) return context.version < ST0903_FIRST_IMAPB_VERSION;
  return size !== imapbLength && size >= legacy.minLength && size <= legacy.maxLength;
}

/** Legacy linear map of an unsigned field of any length onto [min, max], full scale at the field's largest value. */
export function readLegacyUnsigned(bytes: Uint8Array, start: number, end: number, min: number, max: number): number {
  return min + (readUnsigned(bytes, start, end - start) * (max - min)) / (256 ** (end - start) - 1);
}

/**
 * A real number: IMAPB(min, max, length) per ST 1201 for VMTI LS version 4
 * and later (and when the version is unknown), the legacy mapping before.
 * Encoding always writes the current IMAPB form in `length` bytes. With
 * `anyLength`, the decoder takes the length the item carries (ST 0903.6
 * VObject confidence: "IMAPB(0, 100, length)"). ST 1201 special values
 * (infinities, NaNs) decode to their `{ special, identifier }` object.
 */
export function realCodec(min: number, max: number, length: number, legacy?: St0903LegacyMapping, anyLength = false): TagCodec {
  const imapb = fromValueCodec(imapbCodec(min, max, anyLength ? 1 : length, anyLength ? 8 : length, length));
  if (legacy === undefined) return imapb;
  return {
    decode(bytes, start, end, context) {
      const size = end - start;
      if (!readsAsLegacy(context, size, length, legacy)) return imapb.decode(bytes, start, end, context);
      if (size < legacy.minLength || size > legacy.maxLength) {
        return badLength(`length ${size}, expected ${legacy.minLength} to ${legacy.maxLength} (VMTI LS version ${String(context.version)})`);
      }
      const v = readUnsigned(bytes, start, size);
      // Full scale is the largest value of the longest allowed field: a shorter field is just a smaller number.
      if (legacy.kind === 'unsigned') return decodeOk(min + (v * (max - min)) / (256 ** legacy.maxLength - 1));
      const signed = bytes[start] >= 0x80 ? v - 256 ** size : v;
      // ST 0903.3: -2^23 flags an error; a shorter field cannot reach it.
      if (size === 3 && signed === -0x800000) return decodeOk(null);
      return decodeOk((signed * max) / 0x7fffff);
    },
    encode: (value) => imapb.encode(value),
  };
}
