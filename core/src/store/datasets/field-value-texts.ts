/**
 * klv/fields in the columnar exports: of each ST 0601 tag, the bytes of its
 * last value and where that value's text lies in the batch's `value`
 * column. A field often has the value its tag had in the packet before (a
 * mission id, a version, a heading that changes slowly): a number or a text
 * of the same bytes has the same text (decoded from its bytes alone), so it
 * is copied rather than decoded and made again (the String of a number was
 * a third of the klv/fields export). The caller remembers no other value: a
 * nested set's may hold where in the packet it lies.
 */

/** Tags below this are remembered (ST 0601 defines tags 1 to 143). */
const TAGS = 256;

export class FieldValueTexts {
  readonly #bytes: (Uint8Array | null)[] = new Array<Uint8Array | null>(TAGS).fill(null);
  readonly #offsets = new Int32Array(TAGS);
  readonly #lengths = new Int32Array(TAGS);
  /** Where each tag's last text starts and ends in the batch's value column; start -1: none in this batch. */
  readonly #textStarts = new Int32Array(TAGS).fill(-1);
  readonly #textEnds = new Int32Array(TAGS);

  /** Where the text of the tag's last value starts, when that value's bytes are `bytes[offset, offset + length)`; else -1. */
  find(tag: number, bytes: Uint8Array, offset: number, length: number): number {
    if (tag >= TAGS) return -1;
    const start = this.#textStarts[tag];
    if (start < 0 || this.#lengths[tag] !== length) return -1;
    const last = this.#bytes[tag] as Uint8Array;
    const lastOffset = this.#offsets[tag];
    for (let i = 0; i < length; i++) if (last[lastOffset + i] !== bytes[offset + i]) return -1;
    return start;
  }

  /** Where the text of the tag's last value ends (after find gave its start). */
  textEnd(tag: number): number {
    return this.#textEnds[tag];
  }

  /** The tag's value is now `bytes[offset, offset + length)`, its text at `[textStart, textEnd)` of the value column. */
  remember(tag: number, bytes: Uint8Array, offset: number, length: number, textStart: number, textEnd: number): void {
    if (tag >= TAGS) return;
    this.#bytes[tag] = bytes;
    this.#offsets[tag] = offset;
    this.#lengths[tag] = length;
    this.#textStarts[tag] = textStart;
    this.#textEnds[tag] = textEnd;
  }

  /** The value column was taken: none of its texts is there any more. */
  clear(): void {
    this.#textStarts.fill(-1);
    this.#bytes.fill(null);
  }
}
