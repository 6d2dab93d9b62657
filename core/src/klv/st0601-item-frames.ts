/**
 * The items of an ST 0601 packet framed one after the other into one
 * reused cursor, for readers that go through a packet's items once and
 * would otherwise make an object per item (frameSt0601Items): the same
 * items, in the same order. The common item (a one-byte tag, a short-form
 * length) is framed in place; from the first other one on, the rest of the
 * set is framed by parseLocalSet.
 */
import { parseLocalSet, type LocalSetItem } from './local-set.js';
import { localSetBounds } from './st0601-packet.js';

export class St0601ItemFrames implements LocalSetItem {
  tag = 0;
  tagOffset = 0;
  valueOffset = 0;
  length = 0;
  #bytes: Uint8Array = new Uint8Array(0);
  #at = 0;
  #end = 0;
  /** The items framed by parseLocalSet after the first item not framed in place, and the next of them. */
  #rest: LocalSetItem[] | null = null;
  #restAt = 0;

  /** Starts on the packet in `bytes[start, end)` (`start` is its key's first byte). */
  reset(bytes: Uint8Array, start: number, end: number): this {
    const bounds = localSetBounds(bytes, start, Math.min(end, bytes.length), null);
    this.#bytes = bytes;
    this.#at = bounds === null ? 0 : bounds.valueStart;
    this.#end = bounds === null ? 0 : bounds.valueEnd;
    this.#rest = null;
    return this;
  }

  /** Frames the next item into this cursor; false after the last. */
  next(): boolean {
    if (this.#rest !== null) return this.#fromRest();
    const bytes = this.#bytes;
    const at = this.#at;
    const end = this.#end;
    if (at >= end) return false;
    // As parseLocalSet's fast path (its `limit` is `end` here).
    if (at + 2 <= end && bytes[at] < 0x80 && bytes[at + 1] < 0x80 && at + 2 + bytes[at + 1] <= end) {
      this.tag = bytes[at];
      this.tagOffset = at;
      this.valueOffset = at + 2;
      this.length = bytes[at + 1];
      this.#at = at + 2 + this.length;
      return true;
    }
    this.#rest = parseLocalSet(bytes, at, end).items;
    this.#restAt = 0;
    return this.#fromRest();
  }

  #fromRest(): boolean {
    const item = (this.#rest as LocalSetItem[])[this.#restAt++] as LocalSetItem | undefined;
    if (item === undefined) return false;
    this.tag = item.tag;
    this.tagOffset = item.tagOffset;
    this.valueOffset = item.valueOffset;
    this.length = item.length;
    return true;
  }
}
