/**
 * Dataset rows as JSON text written straight into a reusable byte buffer,
 * for the `json` and `ndjson` exports: the text JSON.stringify gives for
 * the row object (decodeDatasetRow), without making that object nor a
 * string per value. Building the text of a 200 MB run's 140 000 rows as
 * strings (a concatenation per value) spent most of its time collecting
 * the garbage of the pieces; here numbers, hex and strings (UTF-8 encoded
 * as they go) are written byte by byte, a nested value's stored JSON text
 * is copied in as it is (it is what JSON.stringify made of the value when
 * it was written, and JSON.stringify(JSON.parse(text)) gives the text
 * back), and values kept in another form (tagged JSON, items decoded from a
 * triplet) are walked and written the same way, their keys encoded once.
 */
import type { SqlValue } from 'sql.js';
import { KlvItemsText } from './klv-items-text.js';
import { decodeJsonValue } from './lossless-json.js';
import type { ObservationColumn } from './observation-columns.js';

const QUOTE = 0x22;
/** The two digits of 0..99, tens first. */
const DIGIT_PAIRS = Uint8Array.from({ length: 200 }, (_, i) => 0x30 + (i % 2 === 0 ? Math.floor(i / 20) : (i >> 1) % 10));
const HEX_DIGITS = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const NULL_TEXT = Buffer.from('null');
const TRUE_TEXT = Buffer.from('true');
const FALSE_TEXT = Buffer.from('false');
/** Deeper than this, a value is left to JSON.stringify (which tells a cycle). */
const MAX_WALK_DEPTH = 64;
/** Distinct keys kept encoded; beyond, the cache starts again (keys are few: those of KLV items and values). */
const MAX_CACHED_KEYS = 4096;

/** JSON text accumulated as UTF-8 bytes; `takeBytes()` hands them over (`take()` as a string) and starts again. */
export class JsonTextBuffer {
  #bytes: Buffer;
  #at = 0;
  readonly #keys = new Map<string, Buffer>();

  constructor(capacity = 128 * 1024) {
    this.#bytes = Buffer.allocUnsafe(capacity);
  }

  /** Bytes written since the last take(). */
  get length(): number {
    return this.#at;
  }

  take(): string {
    const text = this.#bytes.toString('utf8', 0, this.#at);
    this.#at = 0;
    return text;
  }

  /** The bytes written, handed over as an export's chunk (no UTF-8 decoding into a string, no copy); writing goes on in a new buffer. */
  takeBytes(): Buffer {
    const bytes = this.#bytes.subarray(0, this.#at);
    this.#bytes = Buffer.allocUnsafe(this.#bytes.length);
    this.#at = 0;
    return bytes;
  }

  /** The bytes written since the last take() or clear(), as a view that the next write may change. */
  written(): Uint8Array {
    return this.#bytes.subarray(0, this.#at);
  }

  clear(): void {
    this.#at = 0;
  }

  /** Text known to be ASCII and to need no escaping (keys, punctuation), encoded once. */
  bytes(ascii: Uint8Array): void {
    this.room(ascii.length);
    this.#bytes.set(ascii, this.#at);
    this.#at += ascii.length;
  }

  null(): void {
    this.bytes(NULL_TEXT);
  }

  boolean(value: boolean): void {
    this.bytes(value ? TRUE_TEXT : FALSE_TEXT);
  }

  /** A number as JSON.stringify writes it (non-finite numbers are null); whole numbers digit by digit. */
  number(value: number): void {
    if (!Number.isSafeInteger(value)) {
      if (Number.isFinite(value)) this.ascii(String(value));
      else this.null();
      return;
    }
    this.room(17);
    let n = value;
    if (n < 0) {
      this.#bytes[this.#at++] = 0x2d;
      n = -n;
    }
    // Byte offsets pass 2^31: the digits above the last nine first, then those nine, each in 32-bit integer steps.
    if (n < 1e9) {
      this.digits(n, 0);
    } else {
      const high = Math.floor(n / 1e9);
      this.digits(high, 0);
      this.digits(n - high * 1e9, 9);
    }
  }

  /** Text known to be ASCII needing no escape (a number's text): a character per byte, no call into the UTF-8 encoder. */
  private ascii(text: string): void {
    const length = text.length;
    this.room(length);
    const bytes = this.#bytes;
    let at = this.#at;
    for (let i = 0; i < length; i++) bytes[at++] = text.charCodeAt(i);
    this.#at = at;
  }

  /** The digits of `n` (below 10^9), at least `width` of them (leading zeros); two digits a step. */
  private digits(n: number, width: number): void {
    const start = this.#at;
    let count = n < 10 ? 1 : n < 100 ? 2 : n < 1e3 ? 3 : n < 1e4 ? 4 : n < 1e5 ? 5 : n < 1e6 ? 6 : n < 1e7 ? 7 : n < 1e8 ? 8 : 9;
    if (count < width) count = width;
    const bytes = this.#bytes;
    let at = start + count;
    this.#at = at;
    while (n >= 100) {
      const next = (n / 100) | 0;
      const pair = (n - next * 100) << 1;
      bytes[--at] = DIGIT_PAIRS[pair + 1];
      bytes[--at] = DIGIT_PAIRS[pair];
      n = next;
    }
    if (n >= 10) {
      bytes[--at] = DIGIT_PAIRS[(n << 1) + 1];
      bytes[--at] = DIGIT_PAIRS[n << 1];
    } else {
      bytes[--at] = 0x30 + n;
    }
    while (at > start) bytes[--at] = 0x30;
  }

  /**
   * A string as JSON: ASCII copied and other characters UTF-8 encoded between quotes, as it goes; JSON.stringify's
   * text only for a string holding what JSON escapes (control characters, '"', '\\', lone surrogates) or a pair.
   */
  string(value: string): void {
    const length = value.length;
    this.room(3 * length + 2);
    const bytes = this.#bytes;
    const start = this.#at;
    let at = start;
    bytes[at++] = QUOTE;
    for (let i = 0; i < length; i++) {
      const code = value.charCodeAt(i);
      if (code < 0x80) {
        if (code < 0x20 || code === 0x22 || code === 0x5c) return this.escaped(value, start);
        bytes[at++] = code;
      } else if (code < 0x800) {
        // Units such as '°' and 'µs': two bytes.
        bytes[at++] = 0xc0 | (code >> 6);
        bytes[at++] = 0x80 | (code & 0x3f);
      } else if (code >= 0xd800 && code <= 0xdfff) {
        return this.escaped(value, start);
      } else {
        bytes[at++] = 0xe0 | (code >> 12);
        bytes[at++] = 0x80 | ((code >> 6) & 0x3f);
        bytes[at++] = 0x80 | (code & 0x3f);
      }
    }
    bytes[at++] = QUOTE;
    this.#at = at;
  }

  /** The string written again from `start`, as JSON.stringify's text. */
  private escaped(value: string, start: number): void {
    this.#at = start;
    this.text(JSON.stringify(value));
  }

  /** Bytes as a JSON string of lower-case hex digits. */
  hex(value: Uint8Array): void {
    this.hexOf(value, 0, value.length);
  }

  /** `value[start, end)` as a JSON string of lower-case hex digits. */
  hexOf(value: Uint8Array, start: number, end: number): void {
    this.room(2 * (end - start) + 2);
    const bytes = this.#bytes;
    let at = this.#at;
    bytes[at++] = QUOTE;
    for (let i = start; i < end; i++) {
      bytes[at++] = HEX_DIGITS[value[i] >> 4];
      bytes[at++] = HEX_DIGITS[value[i] & 15];
    }
    bytes[at++] = QUOTE;
    this.#at = at;
  }

  /** Any JSON value of a dataset row, as JSON.stringify writes it. */
  value(value: unknown): void {
    switch (typeof value) {
      case 'number':
        return this.number(value);
      case 'string':
        return this.string(value);
      case 'boolean':
        return this.boolean(value);
      default:
        if (value === null || value === undefined) this.null();
        else this.nested(value);
    }
  }

  /**
   * An array or object (KLV items, a nested value) as JSON.stringify writes it, written as it is walked; anything
   * but plain arrays and objects of JSON values anywhere inside (a toJSON, a typed array, a bigint, a cycle) has
   * the whole value written by JSON.stringify instead, so the text is its text (or its error) whatever the value.
   */
  nested(value: unknown): void {
    const start = this.#at;
    if (!this.walk(value, 0)) {
      this.#at = start;
      this.text(JSON.stringify(value));
    }
  }

  /**
   * Writes a value found inside an array or object as JSON.stringify does there; false, with part of it
   * written, when it holds what only JSON.stringify writes (the caller rewinds and leaves the whole to it).
   */
  walkValue(value: unknown): boolean {
    return this.walk(value, 1);
  }

  private walk(value: unknown, depth: number): boolean {
    switch (typeof value) {
      case 'number':
        this.number(value);
        return true;
      case 'string':
        this.string(value);
        return true;
      case 'boolean':
        this.boolean(value);
        return true;
      case 'object':
        if (value === null) {
          this.null();
          return true;
        }
        if (depth === MAX_WALK_DEPTH || (value as { toJSON?: unknown }).toJSON !== undefined) return false;
        if (Array.isArray(value)) return this.walkArray(value, depth + 1);
        return this.walkObject(value, depth + 1);
      default:
        // undefined, functions and symbols (skipped in an object, null in an array) are left to JSON.stringify.
        return false;
    }
  }

  private walkArray(array: readonly unknown[], depth: number): boolean {
    this.byte(0x5b);
    for (let i = 0; i < array.length; i++) {
      if (i > 0) this.byte(0x2c);
      if (!this.walk(array[i], depth)) return false;
    }
    this.byte(0x5d);
    return true;
  }

  private walkObject(object: object, depth: number): boolean {
    const prototype = Object.getPrototypeOf(object) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return false;
    const keys = Object.keys(object);
    this.byte(0x7b);
    for (let i = 0; i < keys.length; i++) {
      if (i > 0) this.byte(0x2c);
      this.bytes(this.keyText(keys[i]));
      if (!this.walk((object as Record<string, unknown>)[keys[i]], depth)) return false;
    }
    this.byte(0x7d);
    return true;
  }

  /** `"key":`, encoded once per key name: objects of one kind (KLV items) share their keys. */
  private keyText(key: string): Uint8Array {
    let text = this.#keys.get(key);
    if (text === undefined) {
      if (this.#keys.size >= MAX_CACHED_KEYS) this.#keys.clear();
      text = Buffer.from(`${JSON.stringify(key)}:`);
      this.#keys.set(key, text);
    }
    return text;
  }

  byte(code: number): void {
    this.room(1);
    this.#bytes[this.#at++] = code;
  }

  /** Drops what was written after `length` bytes (a value begun, then left to another writer). */
  rewind(length: number): void {
    this.#at = length;
  }

  /** JSON text as it is, UTF-8 encoded. */
  text(json: string): void {
    this.room(3 * json.length);
    this.#at += this.#bytes.write(json, this.#at);
  }

  private room(bytes: number): void {
    if (this.#at + bytes <= this.#bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.#bytes.length, this.#at + bytes));
    this.#bytes.copy(grown, 0, 0, this.#at);
    this.#bytes = grown;
  }
}

type ColumnWriter = (out: JsonTextBuffer, value: unknown) => void;

/** How a JSON column's value that is not kept as text is written: items decoded again from a triplet by the items' own writer. */
function decodedValueWriter(column: ObservationColumn): ColumnWriter {
  if (!column.derivable) return (out, value) => out.value(value);
  const items = new KlvItemsText();
  return (out, value) => items.write(value, out);
}

/** How a stored column's value is written in a dataset row (chosen once per column, not per value). */
function columnWriter(column: ObservationColumn): ColumnWriter {
  switch (column.type) {
    case 'integer':
    case 'real':
      return (out, value) => (value === null ? out.null() : out.number(value as number));
    case 'boolean':
      return (out, value) => (value === null ? out.null() : out.boolean(value === 1));
    case 'text':
      return (out, value) => (value === null ? out.null() : out.string(value as string));
    case 'blob':
      return (out, value) => (value === null ? out.null() : out.hex(value as Uint8Array));
    case 'json': {
      const decoded = decodedValueWriter(column);
      // Plain JSON text is copied; tagged text (lossless-json.ts) and values already decoded are written anew.
      return (out, value) => {
        if (value === null) out.null();
        else if (typeof value !== 'string') decoded(out, value);
        else if (value.charCodeAt(0) === 0x7e) out.value(decodeJsonValue(value));
        else out.text(value);
      };
    }
  }
}

/** The `{"field":` and `,"field":` prefixes of a row's fields, encoded once. */
function fieldKeys(fields: readonly string[]): Buffer[] {
  return fields.map((field, i) => Buffer.from(`${i === 0 ? '{' : ','}${JSON.stringify(field)}:`));
}

const CLOSE = Buffer.from('}');

/** Writes rows `[seq, ...columns]` of a table whose dataset fields are `fields` (`seq` first). */
export function storedRowWriter(columns: readonly ObservationColumn[], fields: readonly string[]): (row: readonly SqlValue[], out: JsonTextBuffer) => void {
  const keys = fieldKeys(fields);
  const writers = columns.map(columnWriter);
  const count = columns.length;
  return (row, out) => {
    out.bytes(keys[0]);
    out.number(row[0] as number);
    for (let i = 0; i < count; i++) {
      out.bytes(keys[i + 1]);
      writers[i](out, row[i + 1]);
    }
    out.bytes(CLOSE);
  };
}

/** Writes row objects with the fields `fields`, in that order (a field absent from the row is null). */
export function objectRowWriter(fields: readonly string[]): (row: Readonly<Record<string, unknown>>, out: JsonTextBuffer) => void {
  const keys = fieldKeys(fields);
  return (row, out) => {
    for (let i = 0; i < fields.length; i++) {
      out.bytes(keys[i]);
      out.value(row[fields[i]]);
    }
    out.bytes(CLOSE);
  };
}
