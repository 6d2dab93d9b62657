/**
 * 16-byte UUIDs (RFC 4122) as text. MISB ST 1204 writes them as eight
 * groups of four upper-case hex digits ("F592-F023-7336-4AF8-AA91-62C0-
 * 0F2E-B2DA", ST 1204.3 section 6.2); we accept that and the usual RFC
 * 4122 8-4-4-4-12 form when encoding.
 */
import { hexToBytes } from './hex.js';
import { KlvEncodeError } from './klv-encode-error.js';

/** The 16 bytes at `offset` in the ST 1204 text form. */
export function uuidToSt1204Text(bytes: Uint8Array, offset: number): string {
  let out = '';
  for (let i = 0; i < 16; i++) {
    if (i > 0 && i % 2 === 0) out += '-';
    out += bytes[offset + i].toString(16).padStart(2, '0').toUpperCase();
  }
  return out;
}

/** The bytes of a UUID written with or without dashes. */
export function uuidTextToBytes(text: unknown): Uint8Array {
  const bytes = typeof text === 'string' ? hexToBytes(text.replace(/-/g, '')) : null;
  if (!bytes || bytes.length !== 16) throw new KlvEncodeError(`not a UUID: ${JSON.stringify(text)}`);
  return bytes;
}
