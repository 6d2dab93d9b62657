/**
 * Dataset rows as JSON text written straight into a reusable byte buffer,
 * for the `json` and `ndjson` exports: the text JSON.stringify gives for
 * the row object (decodeDatasetRow), without making that object nor a
 * string per value. Building the text of a 200 MB run's 140 000 rows as
 * strings (a concatenation per value) spent most of its time collecting
 * the garbage of the pieces; here numbers, hex and plain strings are
 * written byte by byte, a nested value's stored JSON text is copied in as
 * it is (it is what JSON.stringify made of the value when it was written,
 * and JSON.stringify(JSON.parse(text)) gives the text back), and only values
 * kept in another form (tagged JSON, items decoded from a triplet, values of
 * fields made from their packet's item) go through JSON.stringify.
 */
import type { SqlValue } from 'sql.js';
import { decodeJsonValue } from './lossless-json.js';
import type { ObservationColumn } from './observation-columns.js';
import type { DatasetRow } from './observation-row-codec.js';

const QUOTE = 0x22;
const HEX_DIGITS = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const NULL_TEXT = Buffer.from('null');
const TRUE_TEXT = Buffer.from('true');
const FALSE_TEXT = Buffer.from('false');

/** JSON text accumulated as UTF-8 bytes; `take()` hands it over as a string and starts again. */
export class JsonTextBuffer {
  #bytes: Buffer;
  #at = 0;

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
      if (Number.isFinite(value)) this.text(String(value));
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

  /** The digits of `n` (below 10^9), at least `width` of them (leading zeros). */
  private digits(n: number, width: number): void {
    let count = 1;
    for (let rest = n; rest >= 10; rest = (rest / 10) | 0) count++;
    if (count < width) count = width;
    const bytes = this.#bytes;
    let at = this.#at + count;
    this.#at = at;
    for (let i = 0; i < count; i++) {
      const next = (n / 10) | 0;
      bytes[--at] = 0x30 + n - next * 10;
      n = next;
    }
  }

  /** A string as JSON: copied between quotes when nothing in it needs escaping, else JSON.stringify's text. */
  string(value: string): void {
    const length = value.length;
    this.room(length + 2);
    const bytes = this.#bytes;
    const start = this.#at;
    let at = start;
    bytes[at++] = QUOTE;
    for (let i = 0; i < length; i++) {
      const code = value.charCodeAt(i);
      // Control characters, '"' and '\' are escaped; anything beyond ASCII takes the UTF-8 encoder (lone surrogates escaped).
      if (code < 0x20 || code === 0x22 || code === 0x5c || code > 0x7e) {
        this.#at = start;
        this.text(JSON.stringify(value));
        return;
      }
      bytes[at++] = code;
    }
    bytes[at++] = QUOTE;
    this.#at = at;
  }

  /** Bytes as a JSON string of lower-case hex digits. */
  hex(value: Uint8Array): void {
    this.room(2 * value.length + 2);
    const bytes = this.#bytes;
    let at = this.#at;
    bytes[at++] = QUOTE;
    for (let i = 0; i < value.length; i++) {
      bytes[at++] = HEX_DIGITS[value[i] >> 4];
      bytes[at++] = HEX_DIGITS[value[i] & 15];
    }
    bytes[at++] = QUOTE;
    this.#at = at;
  }

  /** Any JSON value of a dataset row. */
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
        else this.text(JSON.stringify(value));
    }
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
    case 'json':
      // Plain JSON text is copied; tagged text (lossless-json.ts) and values already decoded are written anew.
      return (out, value) => {
        if (value === null) out.null();
        else if (typeof value !== 'string') out.text(JSON.stringify(value));
        else out.text(value.charCodeAt(0) === 0x7e ? JSON.stringify(decodeJsonValue(value)) : value);
      };
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

/** Writes row objects with the fields `fields`, in that order. */
export function objectRowWriter(fields: readonly string[]): (row: DatasetRow, out: JsonTextBuffer) => void {
  const keys = fieldKeys(fields);
  return (row, out) => {
    for (let i = 0; i < fields.length; i++) {
      out.bytes(keys[i]);
      out.value(row[fields[i]]);
    }
    out.bytes(CLOSE);
  };
}
