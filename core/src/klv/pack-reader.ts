/**
 * A cursor over the bytes of one pack value (MISB ST 0601 DLPs, VLPs,
 * series, ST 0107 section 6.3 "Packs"). Reads never throw and never pass the
 * pack's end: the first failure is remembered with its byte position, later
 * reads return zeros, and the pack decoder returns {@link failure} once done.
 */
import { readBerLength } from './ber-length.js';
import { readBerOid } from './ber-oid.js';
import { readSigned, readUnsigned } from './big-endian-integer.js';
import { imapbReverse, type ImapbMapping, type ImapbValue } from './imapb.js';
import { decodeUtf8 } from './klv-string.js';
import { ValueDecodeFailure } from './value-codec.js';

export class PackReader {
  pos: number;
  failure: ValueDecodeFailure | null = null;

  constructor(
    readonly bytes: Uint8Array,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  get remaining(): number {
    return this.failure ? 0 : this.end - this.pos;
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  fail(message: string, byteOffset = this.pos): void {
    if (!this.failure) this.failure = new ValueDecodeFailure(message, byteOffset);
    this.pos = this.end;
  }

  /** True when `n` more bytes exist; otherwise records a failure naming `what`. */
  need(n: number, what: string): boolean {
    if (this.failure) return false;
    if (this.pos + n > this.end) {
      this.fail(`${what}: needs ${n} bytes, ${this.end - this.pos} left`);
      return false;
    }
    return true;
  }

  berOid(what: string): number {
    if (this.failure) return 0;
    const r = readBerOid(this.bytes, this.pos, this.end);
    if (!r.ok) {
      this.fail(`${what}: ${r.message}`, r.byteOffset);
      return 0;
    }
    this.pos += r.size;
    return r.value;
  }

  /** A BER length that must fit in the rest of the pack. */
  berLength(what: string): number {
    if (this.failure) return 0;
    const at = this.pos;
    const r = readBerLength(this.bytes, this.pos, this.end);
    if (!r.ok) {
      this.fail(`${what}: ${r.message}`, r.byteOffset);
      return 0;
    }
    this.pos += r.size;
    if (this.pos + r.length > this.end) {
      this.fail(`${what}: length ${r.length} runs past the end of the pack (${this.end - this.pos} left)`, at);
      return 0;
    }
    return r.length;
  }

  unsigned(n: number, what: string): number {
    if (!this.need(n, what)) return 0;
    const v = readUnsigned(this.bytes, this.pos, n);
    this.pos += n;
    return v;
  }

  signed(n: number, what: string): number {
    if (!this.need(n, what)) return 0;
    const v = readSigned(this.bytes, this.pos, n);
    this.pos += n;
    return v;
  }

  imapb(mapping: ImapbMapping, what: string): ImapbValue {
    if (!this.need(mapping.length, what)) return 0;
    const v = imapbReverse(mapping, this.bytes, this.pos);
    this.pos += mapping.length;
    return v;
  }

  utf8(n: number, what: string): string {
    if (!this.need(n, what)) return '';
    const s = decodeUtf8(this.bytes, this.pos, this.pos + n);
    this.pos += n;
    return s;
  }

  /** The result, or the failure if any read failed. */
  finish<T>(value: T): T | ValueDecodeFailure {
    return this.failure ?? value;
  }
}
