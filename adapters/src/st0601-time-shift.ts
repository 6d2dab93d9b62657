/**
 * Moves the time of MISB ST 0601 packets: item 2 (Precision Time Stamp,
 * microseconds since 1970, 8 bytes) of every ST 0601 local set in a PES
 * payload is shifted, and item 1 (the checksum, ST 0601 section 6.3) made
 * again over the changed bytes. The payload may lie in several ranges (the
 * TS packets it came in): it is gathered, changed, and scattered back.
 */
import { isSt0601Key, readBerLength, st0601Checksum } from '@klvscope/core';

const KEY_BYTES = 16;
const TIMESTAMP_TAG = 2;
const CHECKSUM_TAG = 1;

export interface PayloadRange {
  bytes: Uint8Array;
  start: number;
  end: number;
}

/** Shifts every ST 0601 time stamp in the payload by `shiftMicros`; other KLV is left as it is. */
export function shiftSt0601Timestamps(ranges: readonly PayloadRange[], shiftMicros: number): void {
  if (shiftMicros === 0) return;
  const payload = new Uint8Array(ranges.reduce((sum, range) => sum + range.end - range.start, 0));
  let at = 0;
  for (const range of ranges) {
    payload.set(range.bytes.subarray(range.start, range.end), at);
    at += range.end - range.start;
  }
  let changed = false;
  // A metadata AU cell header (ST 1402 synchronous carriage) or other bytes may come first: find each key.
  for (let key = 0; key + KEY_BYTES < payload.length; key++) {
    if (!isSt0601Key(payload, key)) continue;
    const length = readBerLength(payload, key + KEY_BYTES, payload.length);
    if (!length.ok) continue;
    const valueStart = key + KEY_BYTES + length.size;
    const valueEnd = Math.min(valueStart + length.length, payload.length);
    changed = shiftLocalSet(payload, key, valueStart, valueEnd, shiftMicros) || changed;
    key = valueEnd - 1;
  }
  if (!changed) return;
  at = 0;
  for (const range of ranges) {
    range.bytes.set(payload.subarray(at, at + range.end - range.start), range.start);
    at += range.end - range.start;
  }
}

function shiftLocalSet(bytes: Uint8Array, key: number, start: number, end: number, shiftMicros: number): boolean {
  let changed = false;
  let item = start;
  while (item < end) {
    // ST 0601 tags 1 and 2 are one byte (BER-OID below 128).
    const tag = bytes[item];
    const length = readBerLength(bytes, item + 1, end);
    if (!length.ok) return changed;
    const value = item + 1 + length.size;
    if (tag === TIMESTAMP_TAG && length.length === 8 && value + 8 <= end) {
      const view = new DataView(bytes.buffer, bytes.byteOffset + value, 8);
      view.setBigUint64(0, view.getBigUint64(0) + BigInt(Math.round(shiftMicros)));
      changed = true;
    } else if (tag === CHECKSUM_TAG && length.length === 2 && value + 2 <= end && changed) {
      const sum = st0601Checksum(bytes, key, value);
      bytes[value] = sum >>> 8;
      bytes[value + 1] = sum & 0xff;
    }
    item = value + length.length;
  }
  return changed;
}
