/**
 * A MISB EG 0104 Predator UAV Basic Universal Set packet: the key
 * 06 0E 2B 34 02 01 01 01 0E 01 01 02 01 01 00 00, a BER length, then
 * universal-set items (SMPTE ST 336 6.2: 16-byte key, BER length, value).
 * EG 0104 has no checksum. Decoding is total: unknown labels, duplicates and
 * wrong lengths are problems with their byte position.
 */
import { readBerLength } from './ber-length.js';
import type { DecodedItem, KlvProblem } from './decoded-item.js';
import { bytesToHex } from './hex.js';
import { type Eg0104ItemSpec, eg0104KeyId, lookupEg0104Item } from './eg0104-items.js';
import { decodeSt0102LocalSet } from './st0102-security-set.js';
import { parseUniversalSet } from './universal-set.js';
import { lookupUniversalKey } from './universal-key.js';

const KEY_SIZE = 16;

/** A decoded EG 0104 item: `tag` is the equivalent ST 0601 tag (0 when none), `keyHex` the label as received. */
export interface Eg0104Item extends DecodedItem {
  keyHex: string;
}

export interface Eg0104Packet {
  readonly items: Eg0104Item[];
  readonly problems: KlvProblem[];
  /** The User Defined Time Stamp (UNIX microseconds), or null when absent or undecodable. */
  readonly timeStampMicros: number | null;
  /** Offset one past the packet as its length frames it (clamped to `end`). */
  readonly packetEnd: number;
}

/**
 * Decodes the EG 0104 packet whose key starts at `start`, within
 * `bytes[start, end)`. A different packet key is reported as 'unknown-key'
 * and the value is still read as an EG 0104 universal set. Never throws.
 */
export function decodeEg0104Packet(bytes: Uint8Array, start: number, end: number): Eg0104Packet {
  const limit = Math.min(end, bytes.length);
  const problems: KlvProblem[] = [];
  if (start + KEY_SIZE >= limit) {
    problems.push({ type: 'raw-decode-error', tag: null, byteOffset: start, message: `EG 0104 packet truncated: ${Math.max(0, limit - start)} bytes, no room for key and length` });
    return { items: [], problems, timeStampMicros: null, packetEnd: limit };
  }
  if (lookupUniversalKey(bytes, start)?.entry.name !== 'eg0104-predator-uav-basic-us') {
    problems.push({ type: 'unknown-key', tag: null, byteOffset: start, message: 'key is not the EG 0104 Predator UAV Basic Universal Set key' });
  }
  const len = readBerLength(bytes, start + KEY_SIZE, limit);
  if (!len.ok) {
    problems.push({ type: 'raw-decode-error', tag: null, byteOffset: len.byteOffset, message: len.message });
    return { items: [], problems, timeStampMicros: null, packetEnd: limit };
  }
  const valueStart = start + KEY_SIZE + len.size;
  let valueEnd = valueStart + len.length;
  if (valueEnd > limit) {
    problems.push({ type: 'raw-decode-error', tag: null, byteOffset: start + KEY_SIZE, message: `EG 0104 packet length ${len.length} runs past the data (${limit - valueStart} bytes left)` });
    valueEnd = limit;
  }

  const framed = parseUniversalSet(bytes, valueStart, valueEnd);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const items: Eg0104Item[] = [];
  const seen: string[] = [];
  let timeStampMicros: number | null = null;
  for (const framedItem of framed.items) {
    const { keyHex, keyOffset, valueOffset, length } = framedItem;
    const rawHex = bytesToHex(bytes, valueOffset, valueOffset + length);
    const keyId = eg0104KeyId(keyHex);
    if (seen.includes(keyId)) {
      problems.push({ type: 'duplicate-tag', tag: null, byteOffset: keyOffset, message: `item ${keyHex} appears more than once` });
    } else {
      seen.push(keyId);
    }
    const spec = lookupEg0104Item(keyHex);
    if (spec === undefined) {
      problems.push({ type: 'unknown-key', tag: null, byteOffset: keyOffset, message: `item key ${keyHex} is not an EG 0104 item` });
      items.push({ tag: 0, keyHex, name: `Unknown item ${keyHex}`, units: null, rawHex, value: null, deprecated: false });
      continue;
    }
    const decoded = decodeValue(spec, bytes, view, valueOffset, length, problems);
    const out: Eg0104Item = { tag: spec.st0601Tag, keyHex, name: spec.name, units: spec.units, rawHex, value: decoded.value, deprecated: false };
    if (decoded.error !== undefined) {
      out.error = decoded.error;
      problems.push({ type: 'bad-item-length', tag: spec.st0601Tag === 0 ? null : spec.st0601Tag, byteOffset: keyOffset, message: `${spec.name}: ${decoded.error}` });
    }
    if (spec.kind === 'unix-time-us' && typeof decoded.value === 'number' && timeStampMicros === null) timeStampMicros = decoded.value;
    items.push(out);
  }
  for (const error of framed.errors) {
    problems.push({ type: 'raw-decode-error', tag: null, byteOffset: error.byteOffset, message: error.message });
  }
  if (!items.some((i) => i.tag === 2)) {
    problems.push({ type: 'missing-mandatory', tag: 2, byteOffset: valueStart, message: 'EG 0104 packet has no User Defined Time Stamp' });
  }
  return { items, problems, timeStampMicros, packetEnd: valueEnd };
}

function decodeValue(
  spec: Eg0104ItemSpec,
  bytes: Uint8Array,
  view: DataView,
  offset: number,
  length: number,
  problems: KlvProblem[],
): { value: unknown; error?: string } {
  switch (spec.kind) {
    case 'unix-time-us': {
      if (length !== 8) return { value: null, error: `length ${length}, expected 8` };
      // Microseconds since 1970 stay below 2^53 until the year 2255: a double holds them exactly.
      return { value: view.getUint32(offset) * 0x100000000 + view.getUint32(offset + 4) };
    }
    case 'float':
      // IEEE 754 big-endian; EG 0104 uses single precision for most items and double for positions.
      if (length === 4) return { value: jsonFloat(view.getFloat32(offset)) };
      if (length === 8) return { value: jsonFloat(view.getFloat64(offset)) };
      return { value: null, error: `length ${length}, expected 4 or 8 (IEEE 754 float)` };
    case 'text': {
      let text = '';
      for (let i = offset; i < offset + length; i++) text += String.fromCharCode(bytes[i]);
      return { value: text };
    }
    case 'st0102-security-ls': {
      const nested = decodeSt0102LocalSet(bytes, offset, offset + length);
      problems.push(...nested.problems);
      return { value: nested.items };
    }
  }
}

/** Non-finite floats as JSON-able special values, named like the ST 1201 ones. */
function jsonFloat(value: number): number | { special: string } {
  if (Number.isFinite(value)) return value;
  if (Number.isNaN(value)) return { special: 'nan' };
  return { special: value > 0 ? 'positive-infinity' : 'negative-infinity' };
}
