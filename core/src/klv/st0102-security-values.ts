/**
 * The text value types of the MISB ST 0102 security local set: ISO/IEC 646
 * (ASCII) strings for most items, and the Object Country Codes (tag 13),
 * which ST 0102.11 and later encode as UTF-16 big-endian while older
 * revisions used ISO 646 like the other items.
 */
import { KlvEncodeError } from './klv-encode-error.js';
import { decodeOk, type TagCodec } from './st0903-tagged-set.js';

/** ISO 646 text, one byte per character. Bytes above 0x7F (not ISO 646) are kept as their Latin-1 characters. */
export const iso646TextCodec: TagCodec = {
  decode: (bytes, start, end) => decodeOk(readOneBytePerCharacter(bytes, start, end)),
  encode(value) {
    if (typeof value !== 'string') throw new KlvEncodeError(`text value must be a string, got ${typeof value}`);
    const out = new Uint8Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if (code > 0xff) throw new KlvEncodeError(`character U+${code.toString(16)} cannot be written as ISO 646 text`);
      out[i] = code;
    }
    return out;
  },
};

/**
 * ST 0102 tag 13. The bytes do not say which revision wrote them, so the
 * encoding is read from the bytes: a byte order mark wins; otherwise an
 * even-length value whose high bytes are all zero is UTF-16BE (whose low
 * bytes are all zero, UTF-16LE); anything else is ISO 646 text.
 */
export const objectCountryCodesCodec: TagCodec = {
  decode(bytes, start, end) {
    const length = end - start;
    if (length >= 2 && length % 2 === 0) {
      if (bytes[start] === 0xfe && bytes[start + 1] === 0xff) return decodeOk(readUtf16(bytes, start + 2, end, false));
      if (bytes[start] === 0xff && bytes[start + 1] === 0xfe) return decodeOk(readUtf16(bytes, start + 2, end, true));
      if (allZero(bytes, start, end)) return decodeOk(readUtf16(bytes, start, end, false));
      if (allZero(bytes, start + 1, end)) return decodeOk(readUtf16(bytes, start, end, true));
    }
    return decodeOk(readOneBytePerCharacter(bytes, start, end));
  },
  encode(value) {
    if (typeof value !== 'string') throw new KlvEncodeError(`object country codes must be a string, got ${typeof value}`);
    // ST 0102.11 and later: UTF-16, big-endian, no byte order mark.
    const out = new Uint8Array(value.length * 2);
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      out[2 * i] = code >> 8;
      out[2 * i + 1] = code & 0xff;
    }
    return out;
  },
};

function readOneBytePerCharacter(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i]);
  return text;
}

/** True when every other byte from `from` (stepping by 2) up to `end` is zero. */
function allZero(bytes: Uint8Array, from: number, end: number): boolean {
  for (let i = from; i < end; i += 2) if (bytes[i] !== 0) return false;
  return true;
}

function readUtf16(bytes: Uint8Array, start: number, end: number, littleEndian: boolean): string {
  let text = '';
  for (let i = start; i + 1 < end; i += 2) {
    text += String.fromCharCode(littleEndian ? bytes[i] | (bytes[i + 1] << 8) : (bytes[i] << 8) | bytes[i + 1]);
  }
  return text;
}
