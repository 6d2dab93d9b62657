/**
 * Moves the time of MISB ST 0601 packets: item 2 (Precision Time Stamp,
 * microseconds since 1970, 8 bytes) of every ST 0601 local set in a PES
 * payload is shifted, and item 1 (the checksum, ST 0601 section 6.3) moved
 * by exactly what the changed bytes add to the sum: a valid checksum stays
 * valid, and a wrong one stays wrong by as much as in the file (a replayed
 * fault recurs on every pass of a loop, not only on the first). The payload
 * may lie in several ranges (the TS packets it came in): it is gathered,
 * changed, and scattered back.
 */
import { isSt0601Key, readBerLength } from '@klvscope/core';

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
  /** What the shifted time stamp changed in the checksum's running sum. */
  let sumChange = 0;
  let item = start;
  while (item < end) {
    // ST 0601 tags 1 and 2 are one byte (BER-OID below 128).
    const tag = bytes[item];
    const length = readBerLength(bytes, item + 1, end);
    if (!length.ok) return changed;
    const value = item + 1 + length.size;
    if (tag === TIMESTAMP_TAG && length.length === 8 && value + 8 <= end) {
      const view = new DataView(bytes.buffer, bytes.byteOffset + value, 8);
      const before = sumOf(bytes, key, value, value + 8);
      view.setBigUint64(0, view.getBigUint64(0) + BigInt(Math.round(shiftMicros)));
      sumChange += sumOf(bytes, key, value, value + 8) - before;
      changed = true;
    } else if (tag === CHECKSUM_TAG && length.length === 2 && value + 2 <= end && changed) {
      const stored = ((bytes[value] << 8) | bytes[value + 1]) + sumChange;
      bytes[value] = (stored >>> 8) & 0xff;
      bytes[value + 1] = stored & 0xff;
    }
    item = value + length.length;
  }
  return changed;
}

/** What `bytes[from, to)` add to the ST 0601 running sum of the packet whose key starts at `key` (core's st0601Checksum: bytes at an even distance from the key in the high byte), unreduced. */
function sumOf(bytes: Uint8Array, key: number, from: number, to: number): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += (i - key) % 2 === 0 ? bytes[i] << 8 : bytes[i];
  return sum;
}
