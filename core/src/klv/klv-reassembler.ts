/**
 * Frames KLV triplets out of bytes that arrive in pieces (PES payloads, serial
 * reads): a triplet may span pieces, several may share one, and garbage
 * between them is skipped up to the next universal label prefix 06 0E 2B 34
 * (SMPTE ST 336; SMPTE ST 298 5.1), reported once per run of garbage.
 */
import { readBerLength } from './ber-length.js';
import { findNextKeyStart, hasUlPrefixAt } from './klv-triplet.js';

/** Where a piece of bytes came from: the position its KLV packets are reported at. */
export interface KlvOrigin {
  offset: number;
  packetIndex: number;
  pts90kHz: number | null;
}

export interface KlvFramingEvents {
  /**
   * A whole triplet in `bytes[start, end)` (the buffer is reused after the
   * call); `intoPiece` is how far into its piece the key starts.
   */
  triplet(bytes: Uint8Array, start: number, end: number, origin: KlvOrigin, intoPiece: number): void;
  /** Bytes that are no KLV: skipped garbage, an impossible length, a packet cut short. */
  garbage(origin: KlvOrigin, byteCount: number, message: string, intoPiece: number): void;
}

/** A KLV value longer than this is taken for a corrupted length, not waited for. */
export const MAX_KLV_VALUE_BYTES = 16 * 1024 * 1024;
const KEY_BYTES = 16;

export class KlvReassembler {
  private buffer = new Uint8Array(4096);
  private length = 0;
  /** Origins of the pieces in the buffer: `starts[i]` is where piece i begins. */
  private starts: number[] = [];
  private origins: KlvOrigin[] = [];
  /** Bytes of piece i consumed before `starts[i]` (after compaction the first piece begins part-way). */
  private skews: number[] = [];
  /** The run of garbage being skipped, not yet reported. */
  private skipped: { origin: KlvOrigin; intoPiece: number; count: number; message: string } | null = null;

  constructor(private readonly events: KlvFramingEvents) {}

  /** Bytes waiting for the rest of their triplet. */
  get pending(): number {
    return this.length;
  }

  push(bytes: Uint8Array, origin: KlvOrigin): void {
    if (bytes.length === 0) return;
    this.append(bytes, origin);
    this.frame(false);
  }

  /** No more bytes will follow what is held: a partial triplet left over is reported. */
  flush(why = 'KLV packet cut short at the end of the data'): void {
    this.frame(true, why);
    this.clear();
  }

  private append(bytes: Uint8Array, origin: KlvOrigin): void {
    if (this.length + bytes.length > this.buffer.length) {
      const grown = new Uint8Array(Math.max(this.length + bytes.length, this.buffer.length * 2));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(bytes, this.length);
    this.starts.push(this.length);
    this.origins.push(origin);
    this.skews.push(0);
    this.length += bytes.length;
  }

  private pieceAt(pos: number): number {
    let i = this.starts.length - 1;
    while (i > 0 && this.starts[i] > pos) i--;
    return i;
  }

  private originAt(pos: number): KlvOrigin {
    return this.origins[this.pieceAt(pos)];
  }

  private intoPiece(pos: number): number {
    const i = this.pieceAt(pos);
    return pos - this.starts[i] + this.skews[i];
  }

  private frame(final: boolean, why = ''): void {
    const b = this.buffer;
    const end = this.length;
    let pos = 0;
    while (pos < end) {
      if (end - pos < 4) {
        if (final) this.skip(pos, end - pos, 'bytes that are not a KLV packet (no 06 0E 2B 34 key)');
        if (final) pos = end;
        break;
      }
      if (!hasUlPrefixAt(b, pos)) {
        const next = findNextKeyStart(b, pos + 1, end);
        // Without a next key, keep the last 3 bytes: they may begin one.
        const stop = next >= 0 ? next : final ? end : end - 3;
        this.skip(pos, stop - pos, 'bytes that are not a KLV packet (no 06 0E 2B 34 key)');
        pos = stop;
        if (next < 0) break;
        continue;
      }
      const total = this.tripletLength(pos, end);
      if (total === -1) {
        // Not all there yet.
        if (final) {
          this.skip(pos, end - pos, why);
          pos = end;
        }
        break;
      }
      if (total === -2) {
        this.skip(pos, 1, 'KLV length is indefinite, too long or impossible');
        pos += 1;
        continue;
      }
      this.reportSkipped();
      this.events.triplet(b, pos, pos + total, this.originAt(pos), this.intoPiece(pos));
      pos += total;
    }
    if (final) this.reportSkipped();
    this.compact(pos);
  }

  /** Counts skipped bytes into the current run of garbage, reported when a packet follows or the data ends. */
  private skip(pos: number, count: number, message: string): void {
    if (count <= 0) return;
    if (this.skipped === null) this.skipped = { origin: this.originAt(pos), intoPiece: this.intoPiece(pos), count: 0, message };
    this.skipped.count += count;
  }

  private reportSkipped(): void {
    if (this.skipped === null) return;
    this.events.garbage(this.skipped.origin, this.skipped.count, this.skipped.message, this.skipped.intoPiece);
    this.skipped = null;
  }

  /** Bytes of the triplet at `pos`: -1 when more data is needed, -2 when its length is impossible. */
  private tripletLength(pos: number, end: number): number {
    const lengthAt = pos + KEY_BYTES;
    if (lengthAt >= end) return -1;
    const first = this.buffer[lengthAt];
    if (first === 0x80 || first === 0xff) return -2;
    const lengthBytes = first < 0x80 ? 1 : 1 + (first & 0x7f);
    if (lengthAt + lengthBytes > end) return -1;
    const length = readBerLength(this.buffer, lengthAt, end);
    if (!length.ok || length.length > MAX_KLV_VALUE_BYTES) return -2;
    const total = KEY_BYTES + length.size + length.length;
    return pos + total > end ? -1 : total;
  }

  private compact(pos: number): void {
    if (pos === 0) return;
    if (pos >= this.length) {
      this.clear();
      return;
    }
    // Keep the pieces that still hold bytes; the first now begins part-way into its piece.
    const first = this.pieceAt(pos);
    const firstSkew = this.skews[first] + (pos - this.starts[first]);
    this.buffer.copyWithin(0, pos, this.length);
    this.length -= pos;
    this.starts = this.starts.slice(first).map((start) => Math.max(0, start - pos));
    this.origins = this.origins.slice(first);
    this.skews = this.skews.slice(first);
    this.skews[0] = firstSkew;
  }

  private clear(): void {
    this.length = 0;
    this.starts = [];
    this.origins = [];
    this.skews = [];
  }
}
