/**
 * Text items. MISB ST 0601 strings were ISO 646 (7-bit) up to ST 0601.16
 * and are UTF-8 since ST 0601.17 (section 6.5); UTF-8 decodes both. Bytes that
 * are not valid UTF-8 become U+FFFD rather than an error: the raw hex is kept
 * beside the value for anyone who needs the exact bytes.
 */
import { KlvEncodeError } from './klv-encode-error.js';
import type { ValueCodec } from './value-codec.js';

const utf8Decoder = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

/** Decodes `bytes[start, end)` as UTF-8, with a no-allocation fast path for ASCII. */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  let ascii = '';
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if (c >= 0x80) return utf8Decoder.decode(bytes.subarray(start, end));
    ascii += String.fromCharCode(c);
  }
  return ascii;
}

export function encodeUtf8(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

/** The value as a string, for encoders of packs with text fields. */
export function requireText(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new KlvEncodeError(`${what} needs a string, got ${JSON.stringify(value)}`);
  return value;
}

/** A string item of `minBytes..maxBytes` UTF-8 bytes (ST 0601: 1..127 for most, 1..32 for Target ID). */
export function stringCodec(minBytes: number, maxBytes: number): ValueCodec {
  return {
    valueType: 'utf8',
    length: { kind: 'range', min: minBytes, max: maxBytes },
    range: null,
    resolution: null,
    decode: decodeUtf8,
    encode(value: unknown): Uint8Array {
      if (typeof value !== 'string') throw new KlvEncodeError(`string item needs a string, got ${JSON.stringify(value)}`);
      const bytes = encodeUtf8(value);
      if (bytes.length < minBytes || bytes.length > maxBytes) {
        throw new KlvEncodeError(`string of ${bytes.length} bytes is outside ${minBytes}..${maxBytes} bytes`);
      }
      return bytes;
    },
  };
}
