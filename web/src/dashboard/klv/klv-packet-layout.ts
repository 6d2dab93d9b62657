/**
 * Where each decoded item of a KLV packet sits in the packet's bytes, so
 * that the packet view can light an item's bytes in the hex dump. The
 * triplet is framed as SMPTE ST 336 frames it (16-byte key, BER length,
 * value); the value as a local set (ST 0601 6.2, ST 0903: BER-OID tag, BER
 * length, value) or, for EG 0104, as a universal set (16-byte item keys).
 * The decoders give items in the order they framed them, so each decoded
 * item takes the next framed item with its tag (or key).
 */
import { parseLocalSet, parseUniversalSet, readKlvTriplet, type KlvItem } from '@klvscope/core/browser';

/** Bytes `[start, end)` of the packet. */
export interface ByteSpan {
  start: number;
  end: number;
}

export interface KlvPacketLayout {
  key: ByteSpan;
  length: ByteSpan;
  /** One per decoded item, in the same order: from its tag (or key) to the end of its value; null when it could not be placed. */
  items: Array<ByteSpan | null>;
}

const UNIVERSAL_SET_KEY = 'eg0104-predator-uav-basic-us';

interface FramedItem {
  id: number | string;
  span: ByteSpan;
}

function framedItems(raw: Uint8Array, keyName: string | null, valueStart: number, valueEnd: number): FramedItem[] {
  if (keyName === UNIVERSAL_SET_KEY) {
    return parseUniversalSet(raw, valueStart, valueEnd).items.map((item) => ({ id: item.keyHex, span: { start: item.keyOffset, end: item.valueOffset + item.length } }));
  }
  return parseLocalSet(raw, valueStart, valueEnd).items.map((item) => ({ id: item.tag, span: { start: item.tagOffset, end: item.valueOffset + item.length } }));
}

/** The layout of `raw` (a whole triplet) for the items its decoder gave; null when the triplet cannot be framed. */
export function klvPacketLayout(raw: Uint8Array, keyName: string | null, items: readonly KlvItem[]): KlvPacketLayout | null {
  const triplet = readKlvTriplet(raw, 0, raw.length);
  if (!triplet.ok) return null;
  const framed = framedItems(raw, keyName, triplet.valueOffset, triplet.end);
  let next = 0;
  const placed = items.map((item) => {
    // EG 0104 items carry their own label; local-set items their tag.
    const id = keyName === UNIVERSAL_SET_KEY ? (item as KlvItem & { keyHex?: string }).keyHex : item.tag;
    const at = framed.findIndex((candidate, index) => index >= next && candidate.id === id);
    if (at < 0) return null;
    next = at + 1;
    return framed[at].span;
  });
  return { key: { start: triplet.keyOffset, end: triplet.lengthOffset }, length: { start: triplet.lengthOffset, end: triplet.valueOffset }, items: placed };
}
