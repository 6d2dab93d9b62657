/**
 * Whole KLV triplets (SMPTE ST 336: 16-byte universal label key, BER length,
 * value) out of a serial byte stream with noise in it, resynchronised on the
 * universal label prefix 06 0E 2B 34 (SMPTE ST 298 5.1).
 *
 * A prefix in noise is not a key. What gives a false start away:
 * - another prefix inside its 16 key bytes (noise that ends right before a
 *   real key, or a real key cut short);
 * - a BER length that is indefinite, malformed or above `maxValueBytes`
 *   (the framer then resumes one byte after the false start, so it never
 *   waits for an absurd length and swallows the packets behind it);
 * - a value that runs over the next real packet: when the bytes right after
 *   the triplet are not a key, but a key inside its value starts a chain of
 *   triplets running past its end, the triplet was cut short (a byte lost on
 *   the line) and the stream goes on at that inner key. A universal set,
 *   whose inner items end exactly where it does, is not mistaken for one.
 *
 * A triplet is delivered as soon as it is complete when nothing else could
 * explain its bytes (the usual case: no prefix inside its value); otherwise
 * it waits for the four bytes after it.
 */
import {
  MAX_BER_LENGTH_FIELD_BYTES,
  MAX_KLV_VALUE_BYTES,
  UL_PREFIX,
  UNIVERSAL_KEY_SIZE as KEY_BYTES,
  findNextKeyStart,
  hasUlPrefixAt,
  lookupUniversalKey,
  readBerLength,
} from '@klvscope/core';
import { ResyncFramer, type FrameSink, type FrameStop } from './resync-framer.js';

/** Default bound on a KLV value: an ST 0601 packet is a few hundred bytes, so 64 KiB leaves room for any metadata set sent over a serial line. */
export const DEFAULT_MAX_KLV_VALUE_BYTES = 64 * 1024;

export interface KlvFramerOptions {
  /** Largest value accepted, in bytes (default 64 KiB, at most core's MAX_KLV_VALUE_BYTES): a longer length marks a false key start. */
  maxValueBytes?: number;
  /** Accept only the keys of core's registry (ST 0601, ST 0102, ST 0903, ...), not any SMPTE universal label. */
  knownKeysOnly?: boolean;
}

const NOT_KLV = 'bytes that are not KLV (no 06 0E 2B 34 key)';
const KEY_INSIDE_KEY = 'a false key start (another key begins inside its 16 bytes)';
const BAD_LENGTH = 'a false key start (BER length impossible or above the limit)';
const UNKNOWN_KEY = 'a key that is not in the registry';
const CUT_SHORT = 'a KLV packet cut short (the next key begins inside its value)';
const CUT_AT_END = 'a KLV packet cut short at the end of the stream';

/** How the candidate triplet at a key prefix turned out. */
type Candidate =
  | { kind: 'packet'; end: number }
  /** Skip `skip` bytes as noise and look again. */
  | { kind: 'noise'; skip: number; reason: string }
  /** Undecided: wait until `need` bytes from the key are held (0: any new byte may decide). */
  | { kind: 'wait'; need: number };

/** How a chain of triplets starting inside a candidate's value meets the candidate's end. */
type Chain = 'fits' | 'crosses' | 'broken' | 'unknown';

export class KlvFramer extends ResyncFramer {
  private readonly maxValueBytes: number;
  private readonly knownKeysOnly: boolean;

  constructor(options: KlvFramerOptions = {}) {
    super();
    const max = options.maxValueBytes ?? DEFAULT_MAX_KLV_VALUE_BYTES;
    if (!Number.isSafeInteger(max) || max < 1 || max > MAX_KLV_VALUE_BYTES) {
      throw new RangeError(`maxValueBytes must be an integer from 1 to ${MAX_KLV_VALUE_BYTES}, got ${max}`);
    }
    this.maxValueBytes = max;
    this.knownKeysOnly = options.knownKeysOnly ?? false;
  }

  /** The most bytes held between pushes: one triplet of the largest accepted size, plus what it takes to confirm it. */
  override get maxPending(): number {
    return 2 * (KEY_BYTES + MAX_BER_LENGTH_FIELD_BYTES) + this.maxValueBytes + UL_PREFIX.length;
  }

  protected frame(b: Uint8Array, end: number, final: boolean, sink: FrameSink): FrameStop {
    let pos = 0;
    while (pos < end) {
      if (!hasUlPrefixAt(b, pos, end)) {
        const next = findNextKeyStart(b, pos + 1, end);
        if (next < 0) {
          // The last bytes may be the beginning of a key: hold them.
          const keep = final ? end : partialPrefixStart(b, pos, end);
          sink.noise(pos, keep - pos, NOT_KLV);
          return { next: keep, need: 0 };
        }
        sink.noise(pos, next - pos, NOT_KLV);
        pos = next;
        continue;
      }
      const candidate = this.candidateAt(b, pos, end, final);
      if (candidate.kind === 'packet') {
        sink.packet(pos, candidate.end);
        pos = candidate.end;
      } else if (candidate.kind === 'noise') {
        sink.noise(pos, candidate.skip, candidate.reason);
        pos += candidate.skip;
      } else if (final) {
        // Nothing more will come: resume one byte on, so packets behind a truncated one are still found.
        sink.noise(pos, 1, CUT_AT_END);
        pos += 1;
      } else {
        return { next: pos, need: candidate.need };
      }
    }
    return { next: pos, need: 0 };
  }

  /** The triplet whose key starts at `pos` (a prefix is there). */
  private candidateAt(b: Uint8Array, pos: number, end: number, final: boolean): Candidate {
    // A label never holds 06 0E 2B 34 again: a prefix starting inside the first 16 bytes is the real key.
    const inner = findNextKeyStart(b, pos + 1, Math.min(end, pos + KEY_BYTES + UL_PREFIX.length - 1));
    if (inner >= 0) return { kind: 'noise', skip: inner - pos, reason: KEY_INSIDE_KEY };
    if (end - pos <= KEY_BYTES) return { kind: 'wait', need: KEY_BYTES + 1 };
    if (this.knownKeysOnly && lookupUniversalKey(b, pos) === null) return { kind: 'noise', skip: 1, reason: UNKNOWN_KEY };
    const length = this.lengthAt(b, pos + KEY_BYTES, end);
    if (length === 'bad') return { kind: 'noise', skip: 1, reason: BAD_LENGTH };
    if (length === 'short') return { kind: 'wait', need: 0 };
    const packetEnd = length.valueEnd;
    if (packetEnd > end) return { kind: 'wait', need: packetEnd - pos };
    // Confirmed by the key right after it: the usual case between back-to-back packets.
    if (hasUlPrefixAt(b, packetEnd, end)) return { kind: 'packet', end: packetEnd };
    const followerUnknown = !final && partialPrefixStart(b, packetEnd, end) === packetEnd;
    for (let q = findInnerKey(b, pos + KEY_BYTES, packetEnd, end); q >= 0; q = findInnerKey(b, q + 1, packetEnd, end)) {
      const chain = this.chainFrom(b, q, packetEnd, end);
      if (chain === 'unknown' && !final) return { kind: 'wait', need: 0 };
      if (chain !== 'crosses') continue;
      if (followerUnknown) return { kind: 'wait', need: 0 };
      return { kind: 'noise', skip: q - pos, reason: CUT_SHORT };
    }
    return { kind: 'packet', end: packetEnd };
  }

  /** The BER length at `at`: 'bad' when impossible or above the limit, 'short' when not all there yet. */
  private lengthAt(b: Uint8Array, at: number, end: number): { valueEnd: number } | 'bad' | 'short' {
    const length = readBerLength(b, at, end);
    if (!length.ok) return length.truncated ? 'short' : 'bad';
    if (length.length > this.maxValueBytes) return 'bad';
    return { valueEnd: at + length.size + length.length };
  }

  /** Follows triplets from the inner key at `q` and says how the chain meets `packetEnd`. */
  private chainFrom(b: Uint8Array, q: number, packetEnd: number, end: number): Chain {
    let t = q;
    while (t < packetEnd) {
      if (t + UL_PREFIX.length > end) return partialPrefixStart(b, t, end) === t ? 'unknown' : 'broken';
      if (!hasUlPrefixAt(b, t, end)) return 'broken';
      const length = this.lengthAt(b, t + KEY_BYTES, end);
      if (length === 'bad') return 'broken';
      if (length === 'short') return 'unknown';
      t = length.valueEnd;
    }
    return t === packetEnd ? 'fits' : 'crosses';
  }
}

/** The first position in `[from, end)` from which the bytes to `end` are the start of the prefix (`end` when none). */
function partialPrefixStart(b: Uint8Array, from: number, end: number): number {
  for (let p = Math.max(from, end - (UL_PREFIX.length - 1)); p < end; p++) {
    let matches = true;
    for (let i = p; i < end && matches; i++) matches = b[i] === UL_PREFIX[i - p];
    if (matches) return p;
  }
  return end;
}

/**
 * The next position in `[from, packetEnd)` where a key starts or may start
 * (a prefix running past what is held counts), or -1.
 */
function findInnerKey(b: Uint8Array, from: number, packetEnd: number, end: number): number {
  const whole = findNextKeyStart(b, from, Math.min(end, packetEnd + UL_PREFIX.length - 1));
  if (whole >= 0) return whole;
  const partial = partialPrefixStart(b, Math.max(from, packetEnd - (UL_PREFIX.length - 1)), end);
  return partial < packetEnd && partial < end ? partial : -1;
}
