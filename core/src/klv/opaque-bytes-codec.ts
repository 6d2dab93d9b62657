/**
 * Values we keep as bytes: deprecated items and items defined by documents
 * we do not decode. Decoded as `{ hex }` so that the value is never mistaken
 * for a decoded string.
 */
import { bytesToHex, hexToBytes } from './hex.js';
import { KlvEncodeError } from './klv-encode-error.js';
import type { LengthRule, ValueCodec } from './value-codec.js';

export interface OpaqueBytes {
  readonly hex: string;
}

/** Bytes of a `{ hex }` value, a hex string, or a Uint8Array. */
export function opaqueBytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  const hex = typeof value === 'string' ? value : typeof value === 'object' && value !== null ? (value as { hex?: unknown }).hex : undefined;
  const bytes = typeof hex === 'string' ? hexToBytes(hex) : null;
  if (!bytes) throw new KlvEncodeError(`opaque value needs { hex } or a hex string, got ${JSON.stringify(value)}`);
  return bytes;
}

export function opaqueBytesCodec(valueType: string, length: LengthRule = { kind: 'variable' }): ValueCodec {
  return {
    valueType,
    length,
    range: null,
    resolution: null,
    decode: (bytes: Uint8Array, start: number, end: number): OpaqueBytes => ({ hex: bytesToHex(bytes, start, end) }),
    encode: opaqueBytesOf,
  };
}
