/**
 * A whole MISB ST 0601 UAS Datalink LS packet: 16-byte key, BER length, then
 * the local set (ST 0601.17 section 6). Decoding is total and reports what
 * is wrong as {@link KlvProblem}s with byte positions: unknown key, framing
 * errors, checksum mismatch (item 1, section 6.3), unknown and duplicate
 * tags, missing mandatory items (1, 2, 65), items of a length the table does
 * not allow. Encoding writes item 1 last with the right value.
 */
import { encodeBerLength, readBerLength } from './ber-length.js';
import { encodeBerOid } from './ber-oid.js';
import { st0601Checksum } from './checksum.js';
import type { DecodedItem, KlvProblem } from './decoded-item.js';
import { parseLocalSet, type LocalSetItem } from './local-set.js';
import { concatBytes } from './nested-local-set-codec.js';
import { decodeSt0601ItemInto, encodeSt0601Item } from './st0601-item.js';
import { st0601Item, ST0601_MANDATORY_TAGS, ST0601_MAX_TAG } from './st0601-items.js';
import { isSt0601Key, keyToHex, universalKey } from './universal-key.js';

export interface St0601Checksum {
  /** Item 1 is in the packet. */
  present: boolean;
  /** Its value, or null when absent or not two bytes long. */
  stored: number | null;
  /** The running sum over the received bytes up to item 1's value (over the whole packet when item 1 is absent). */
  computed: number;
  valid: boolean;
}

export interface St0601Packet {
  /** Item 65, the ST 0601 revision the producer followed. */
  version: number | null;
  /** Item 2: µs since 1970-01-01T00:00:00Z. */
  precisionTimeStamp: number | null;
  checksum: St0601Checksum;
  items: DecodedItem[];
  problems: KlvProblem[];
}

const KEY_SIZE = 16;

const seenGeneration = new Uint32Array(ST0601_MAX_TAG + 1);
let currentGeneration = 0;

function nextGeneration(): number {
  currentGeneration = (currentGeneration + 1) >>> 0;
  if (currentGeneration === 0) {
    seenGeneration.fill(0);
    currentGeneration = 1;
  }
  return currentGeneration;
}
const CHECKSUM_TAG = 1;
const TIME_STAMP_TAG = 2;
const VERSION_TAG = 65;

/**
 * Where the local set of the packet in `bytes[start, end)` lies (`limit` is
 * `end` within `bytes`), or null when the key and length leave none. What is
 * wrong with the key and the length goes to `problems`, when given.
 */
export function localSetBounds(bytes: Uint8Array, start: number, limit: number, problems: KlvProblem[] | null): { valueStart: number; valueEnd: number } | null {
  if (start < 0 || start + KEY_SIZE >= limit) {
    problems?.push({ type: 'raw-decode-error', tag: null, byteOffset: Math.max(0, start), message: `packet truncated: ${Math.max(0, limit - start)} bytes, no room for key and length` });
    return null;
  }
  if (problems !== null && !isSt0601Key(bytes, start)) {
    problems.push({ type: 'unknown-key', tag: null, byteOffset: start, message: `key ${keyToHex(bytes, start)} is not the ST 0601 UAS Datalink LS key` });
  }
  const len = readBerLength(bytes, start + KEY_SIZE, limit);
  if (!len.ok) {
    problems?.push({ type: 'raw-decode-error', tag: null, byteOffset: len.byteOffset, message: `packet length: ${len.message}` });
    return null;
  }
  const valueStart = start + KEY_SIZE + len.size;
  let valueEnd = valueStart + len.length;
  if (valueEnd > limit) {
    problems?.push({
      type: 'raw-decode-error',
      tag: null,
      byteOffset: start + KEY_SIZE,
      message: `packet length ${len.length} runs past the data (${limit - valueStart} bytes left); decoding what is there`,
    });
    valueEnd = limit;
  }
  return { valueStart, valueEnd };
}

/**
 * The items of the packet in `bytes[start, end)` framed, not decoded: those
 * decodeSt0601 decodes, in its order (item i of its `items` is
 * `decodeSt0601ItemInto` of framed item i). For readers that need an item's
 * bytes more often than its value.
 */
export function frameSt0601Items(bytes: Uint8Array, start: number, end: number): LocalSetItem[] {
  const bounds = localSetBounds(bytes, start, Math.min(end, bytes.length), null);
  return bounds === null ? [] : parseLocalSet(bytes, bounds.valueStart, bounds.valueEnd).items;
}

/**
 * Decodes the packet in `bytes[start, end)`: `start` is the key's first
 * byte. A key other than the ST 0601 key is reported ('unknown-key') and the
 * value is still decoded as ST 0601. Never throws.
 */
export function decodeSt0601(bytes: Uint8Array, start: number, end: number): St0601Packet {
  const limit = Math.min(end, bytes.length);
  const problems: KlvProblem[] = [];
  const items: DecodedItem[] = [];
  const packet: St0601Packet = {
    version: null,
    precisionTimeStamp: null,
    checksum: { present: false, stored: null, computed: 0, valid: false },
    items,
    problems,
  };
  const bounds = localSetBounds(bytes, start, limit, problems);
  if (bounds === null) {
    packet.checksum.computed = st0601Checksum(bytes, Math.max(0, start), limit);
    return packet;
  }
  const { valueStart, valueEnd } = bounds;

  const set = parseLocalSet(bytes, valueStart, valueEnd);
  for (const e of set.errors) problems.push({ type: 'raw-decode-error', tag: null, byteOffset: e.byteOffset, message: e.message });

  // Which tags this packet has shown: a generation stamp per tag instead of a
  // fresh array per packet (allocating one costs more than decoding an item).
  const generation = nextGeneration();
  let checksumValueOffset = -1;
  let checksumLength = 0;
  let checksumTagOffset = -1;
  for (let i = 0; i < set.items.length; i++) {
    const framed = set.items[i];
    const tag = framed.tag;
    const decoded = decodeSt0601ItemInto(tag, bytes, framed.valueOffset, framed.valueOffset + framed.length, framed.tagOffset, problems);
    items.push(decoded);
    if (tag <= ST0601_MAX_TAG) {
      if (seenGeneration[tag] === generation && !st0601Item(tag)?.mayRepeat) {
        problems.push({ type: 'duplicate-tag', tag, byteOffset: framed.tagOffset, message: `${decoded.name} (tag ${tag}) appears more than once; ST 0601 allows it once per packet` });
      }
      seenGeneration[tag] = generation;
    }
    if (tag === CHECKSUM_TAG) {
      checksumValueOffset = framed.valueOffset;
      checksumLength = framed.length;
      checksumTagOffset = framed.tagOffset;
    } else if (tag === TIME_STAMP_TAG && packet.precisionTimeStamp === null && typeof decoded.value === 'number') {
      packet.precisionTimeStamp = decoded.value;
    } else if (tag === VERSION_TAG && packet.version === null && typeof decoded.value === 'number') {
      packet.version = decoded.value;
    }
  }

  if (checksumValueOffset >= 0) {
    // ST 0601 6.3: the sum runs from the key's first byte through item 1's tag and length.
    const computed = st0601Checksum(bytes, start, checksumValueOffset);
    const stored = checksumLength === 2 ? (bytes[checksumValueOffset] << 8) | bytes[checksumValueOffset + 1] : null;
    packet.checksum = { present: true, stored, computed, valid: stored === computed };
    if (stored !== null && stored !== computed) {
      problems.push({
        type: 'checksum-error',
        tag: CHECKSUM_TAG,
        byteOffset: checksumValueOffset,
        message: `checksum stored 0x${hex4(stored)}, computed 0x${hex4(computed)}`,
      });
    }
    if (checksumValueOffset + checksumLength !== valueEnd) {
      problems.push({ type: 'raw-decode-error', tag: CHECKSUM_TAG, byteOffset: checksumTagOffset, message: 'the checksum (item 1) is not the last item of the packet (ST 0601 6.3)' });
    }
  } else {
    packet.checksum.computed = st0601Checksum(bytes, start, valueEnd);
  }

  for (const tag of ST0601_MANDATORY_TAGS) {
    if (seenGeneration[tag] !== generation) {
      problems.push({ type: 'missing-mandatory', tag, byteOffset: start, message: `mandatory item ${st0601Item(tag)?.name} (tag ${tag}) is missing` });
    }
  }
  return packet;
}

function hex4(n: number): string {
  return n.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * A whole packet: ST 0601 key, BER length, the items in the order given,
 * then item 1 with the checksum of everything before its value. Any item 1
 * in `items` is ignored. Throws KlvEncodeError for a value an item cannot
 * represent.
 */
export function encodeSt0601(items: ReadonlyArray<{ tag: number; value: unknown }>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const { tag, value } of items) {
    if (tag === CHECKSUM_TAG) continue;
    const bytes = encodeSt0601Item(tag, value);
    parts.push(encodeBerOid(tag), encodeBerLength(bytes.length), bytes);
  }
  parts.push(Uint8Array.of(CHECKSUM_TAG, 2, 0, 0));
  const body = concatBytes(parts);
  const packet = concatBytes([universalKey('st0601-uas-datalink-ls').bytes, encodeBerLength(body.length), body]);
  const sum = st0601Checksum(packet, 0, packet.length - 2);
  packet[packet.length - 2] = sum >> 8;
  packet[packet.length - 1] = sum & 0xff;
  return packet;
}
