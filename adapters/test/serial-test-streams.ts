/**
 * Byte streams for the serial tests: real MISB ST 0601 packets (core's
 * encoder, checksum included) with seeded random noise between them, and
 * the exact noise each gap holds, so a test can compare what the framer
 * reports with what was put in.
 */
import { encodeSt0601, findNextKeyStart } from '@klvscope/core';
import { seededRandom } from '../../test-support/random.js';

export interface NoisyStream {
  /** Everything, as sent on the line. */
  bytes: Uint8Array;
  packets: Uint8Array[];
  /** Noise bytes before packet i (index packets.length: after the last one). */
  noiseBefore: number[];
  /** Item 2 of each packet. */
  timestamps: number[];
}

const FIRST_TIMESTAMP_MICROS = 1_700_000_000_000_000;

/** ST 0601 packet i: values vary, and every third one has a long mission id, so BER lengths take both forms. */
export function st0601Packet(i: number): { bytes: Uint8Array; timestampMicros: number } {
  const timestampMicros = FIRST_TIMESTAMP_MICROS + i * 33_333;
  const bytes = encodeSt0601([
    { tag: 2, value: timestampMicros },
    { tag: 3, value: i % 3 === 0 ? `MISSION-${i}-`.padEnd(120, 'X') : `M${i}` },
    { tag: 13, value: 45 + i / 1000 },
    { tag: 14, value: -120 - i / 1000 },
    { tag: 15, value: 1000 + i },
    { tag: 65, value: 19 },
  ]);
  return { bytes, timestampMicros };
}

/** The starts of the key prefix 06 0E 2B 34: noise that ends with one of these runs straight into the real key. */
const PARTIAL_KEYS = [[0x06], [0x06, 0x0e], [0x06, 0x0e, 0x2b]];

/**
 * `count` packets with noise before each and after the last (`trailingNoise`),
 * from `seed`. Some gaps are empty, some end with the first bytes of a key.
 * Noise never holds a whole key prefix (it would be a false start, which
 * other tests build on purpose).
 */
export function noisyKlvStream(count: number, seed: number, options: { trailingNoise?: boolean; maxNoise?: number } = {}): NoisyStream {
  const random = seededRandom(seed);
  const parts: Uint8Array[] = [];
  const packets: Uint8Array[] = [];
  const noiseBefore: number[] = [];
  const timestamps: number[] = [];
  const gap = (): void => {
    const noise = randomNoise(random, options.maxNoise ?? 40);
    noiseBefore.push(noise.length);
    parts.push(noise);
  };
  for (let i = 0; i < count; i++) {
    gap();
    const packet = st0601Packet(i);
    packets.push(packet.bytes);
    timestamps.push(packet.timestampMicros);
    parts.push(packet.bytes);
  }
  if (options.trailingNoise ?? false) gap();
  else noiseBefore.push(0);
  return { bytes: concat(parts), packets, noiseBefore, timestamps };
}

/** Noise of up to `max` bytes (a few more with a key start): a quarter of gaps empty, a quarter ending in the start of a key prefix. */
export function randomNoise(random: () => number, max: number): Uint8Array {
  const kind = Math.floor(random() * 4);
  if (kind === 0 || max === 0) return new Uint8Array(0);
  for (;;) {
    const bytes = Array.from({ length: 1 + Math.floor(random() * max) }, () => Math.floor(random() * 256));
    if (kind === 1) bytes.push(...PARTIAL_KEYS[Math.floor(random() * PARTIAL_KEYS.length)]);
    // The first key in noise + key must be the real one (almost always so: a retry is rare).
    const withKey = Uint8Array.from([...bytes, 0x06, 0x0e, 0x2b, 0x34]);
    if (findNextKeyStart(withKey, 0, withKey.length) === bytes.length) return Uint8Array.from(bytes);
  }
}

/** The parts joined, as a plain Uint8Array (chai's deep equality tells a Buffer from one). */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const joined = Buffer.concat(parts);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.length);
}

/** Offsets in the delivered stream where noise is expected, with its byte count (gaps without noise left out). */
export function expectedNoise(stream: NoisyStream): Array<[offset: number, count: number]> {
  const out: Array<[number, number]> = [];
  let offset = 0;
  stream.noiseBefore.forEach((count, i) => {
    if (count > 0) out.push([offset, count]);
    if (i < stream.packets.length) offset += stream.packets[i].length;
  });
  return out;
}
