/**
 * Items whose value is an MISB ST 1201 IMAPB(a, b, L) number, as ST 0601
 * uses from item 96 on: the length L is whatever the producer chose within
 * the item's bounds, so the mapping constants depend on the received length.
 * They are computed once per length and cached.
 */
import { createImapbMapping, imapbForward, imapbReverse, IMAPB_MAX_LENGTH, type ImapbMapping, type ImapbValue } from './imapb.js';
import { KlvEncodeError } from './klv-encode-error.js';
import type { ValueCodec } from './value-codec.js';

export interface ImapbCodec extends ValueCodec {
  /** The length the encoder writes (the standard's recommended length). */
  readonly encodeLength: number;
  mapping(length: number): ImapbMapping;
}

/** IMAPB(a, b) with lengths `minBytes..maxBytes`, encoding with `encodeLength` bytes. */
export function imapbCodec(a: number, b: number, minBytes: number, maxBytes: number, encodeLength: number): ImapbCodec {
  const mappings: ImapbMapping[] = [];
  for (let length = 1; length <= IMAPB_MAX_LENGTH; length++) mappings[length] = createImapbMapping(a, b, length);
  return {
    valueType: 'IMAPB',
    length: { kind: 'range', min: minBytes, max: maxBytes },
    range: { min: a, max: b },
    resolution: mappings[encodeLength].sR,
    encodeLength,
    mapping: (length: number) => mappings[length],
    decode: (bytes: Uint8Array, start: number, end: number) => imapbReverse(mappings[end - start], bytes, start),
    encode(value: unknown): Uint8Array {
      if (typeof value !== 'number' && !isImapbSpecial(value)) {
        throw new KlvEncodeError(`IMAPB needs a number or a special value, got ${JSON.stringify(value)}`);
      }
      return imapbForward(mappings[encodeLength], value);
    },
  };
}

function isImapbSpecial(value: unknown): value is ImapbValue {
  return typeof value === 'object' && value !== null && typeof (value as { special?: unknown }).special === 'string';
}
