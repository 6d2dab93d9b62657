/**
 * A standalone MISB ST 0903.6 VMTI packet: the VMTI LS universal key
 * 06 0E 2B 34 02 0B 01 01 0E 01 03 03 06 00 00 00, a BER length and the
 * local set, closed by the checksum item (tag 1). The checksum is the
 * ST 0601 running 16-bit sum, over the key through the checksum item's
 * length byte. A standalone packet must also carry its own Precision Time
 * Stamp (tag 2), since no ST 0601 packet around it gives one.
 */
import { encodeBerLength, readBerLength } from './ber-length.js';
import { st0601Checksum } from './checksum.js';
import type { DecodedItem, KlvProblem } from './decoded-item.js';
import { concatBytes } from './nested-local-set-codec.js';
import type { TaggedItemInput } from './st0903-tagged-set.js';
import { decodeSt0903LocalSet, encodeSt0903LocalSet, type St0903DecodeOptions } from './st0903-vmti-set.js';
import { lookupUniversalKey, universalKey } from './universal-key.js';

const KEY_SIZE = 16;
const CHECKSUM_TAG = 1;
const TIMESTAMP_TAG = 2;

export interface St0903Packet {
  readonly items: DecodedItem[];
  readonly problems: KlvProblem[];
  /** Offset one past the packet as its length field frames it (clamped to `end`): where the next packet starts. */
  readonly packetEnd: number;
  /** The checksum as stored and as computed, or null when the packet has no checksum item at its end. */
  readonly checksum: { readonly stored: number; readonly computed: number; readonly valid: boolean } | null;
}

/**
 * Decodes the standalone VMTI packet starting at `start` (its key) within
 * `bytes[start, end)`. A key other than the VMTI LS key is reported as
 * 'unknown-key' and the value is still decoded as VMTI; a length running
 * past `end` is reported and what is there is decoded. Never throws.
 */
export function decodeSt0903Packet(bytes: Uint8Array, start: number, end: number, options: St0903DecodeOptions = {}): St0903Packet {
  const limit = Math.min(end, bytes.length);
  const problems: KlvProblem[] = [];
  if (start + KEY_SIZE >= limit) {
    problems.push({ type: 'raw-decode-error', tag: null, byteOffset: start, message: `VMTI packet truncated: ${Math.max(0, limit - start)} bytes, no room for key and length` });
    return { items: [], problems, packetEnd: limit, checksum: null };
  }
  // SMPTE ST 336: keys match with the version byte ignored.
  if (lookupUniversalKey(bytes, start)?.entry.name !== 'st0903-vmti-ls') {
    problems.push({ type: 'unknown-key', tag: null, byteOffset: start, message: 'key is not the ST 0903 VMTI LS key' });
  }
  const len = readBerLength(bytes, start + KEY_SIZE, limit);
  if (!len.ok) {
    problems.push({ type: 'raw-decode-error', tag: null, byteOffset: len.byteOffset, message: len.message });
    return { items: [], problems, packetEnd: limit, checksum: null };
  }
  const valueStart = start + KEY_SIZE + len.size;
  let valueEnd = valueStart + len.length;
  if (valueEnd > limit) {
    problems.push({
      type: 'raw-decode-error',
      tag: null,
      byteOffset: start + KEY_SIZE,
      message: `VMTI packet length ${len.length} runs past the data (${limit - valueStart} bytes left)`,
    });
    valueEnd = limit;
  }
  const set = decodeSt0903LocalSet(bytes, valueStart, valueEnd, options);
  problems.push(...set.problems);
  const checksum = verifyChecksum(bytes, start, valueStart, valueEnd, set.items, problems);
  if (!set.items.some((item) => item.tag === TIMESTAMP_TAG)) {
    problems.push({ type: 'missing-mandatory', tag: TIMESTAMP_TAG, byteOffset: valueStart, message: 'standalone VMTI packet has no Precision Time Stamp (tag 2)' });
  }
  return { items: set.items, problems, packetEnd: valueEnd, checksum };
}

/** ST 0903.6: the checksum is the last item, tag 1 length 2, summed over the key through its length byte. */
function verifyChecksum(
  bytes: Uint8Array,
  packetStart: number,
  valueStart: number,
  valueEnd: number,
  items: readonly DecodedItem[],
  problems: KlvProblem[],
): St0903Packet['checksum'] {
  const itemStart = valueEnd - 4;
  if (itemStart >= valueStart && bytes[itemStart] === CHECKSUM_TAG && bytes[itemStart + 1] === 2) {
    const stored = (bytes[valueEnd - 2] << 8) | bytes[valueEnd - 1];
    const computed = st0601Checksum(bytes, packetStart, valueEnd - 2);
    const valid = stored === computed;
    if (!valid) {
      const hex = (n: number) => `0x${n.toString(16).padStart(4, '0')}`;
      problems.push({ type: 'checksum-error', tag: CHECKSUM_TAG, byteOffset: valueEnd - 2, message: `checksum ${hex(stored)} does not match the computed ${hex(computed)}` });
    }
    return { stored, computed, valid };
  }
  const misplaced = items.some((item) => item.tag === CHECKSUM_TAG);
  problems.push({
    type: misplaced ? 'checksum-error' : 'missing-mandatory',
    tag: CHECKSUM_TAG,
    byteOffset: valueEnd,
    message: misplaced ? 'checksum item (tag 1) is not the last item of the packet' : 'standalone VMTI packet has no checksum item (tag 1)',
  });
  return null;
}

/**
 * Encodes a standalone VMTI packet: key, BER length, the items in the order
 * given (any checksum item among them is dropped) and a computed checksum
 * item at the end.
 */
export function encodeSt0903Packet(items: readonly TaggedItemInput[]): Uint8Array {
  const set = encodeSt0903LocalSet(items.filter((item) => item.tag !== CHECKSUM_TAG));
  const key = universalKey('st0903-vmti-ls').bytes;
  const packet = concatBytes([key, encodeBerLength(set.length + 4), set, Uint8Array.of(CHECKSUM_TAG, 2, 0, 0)]);
  const sum = st0601Checksum(packet, 0, packet.length - 2);
  packet[packet.length - 2] = sum >> 8;
  packet[packet.length - 1] = sum & 0xff;
  return packet;
}
