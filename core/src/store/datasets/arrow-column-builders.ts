/**
 * One Arrow column of a record batch being built, filled a value at a time
 * into typed arrays (no row object, no per-value Arrow builder call) and
 * handed over as Arrow `Data` (Arrow columnar format: a validity bitmap of
 * one bit per row, LSB first, then the values; Utf8 and Binary as int32
 * offsets and bytes).
 *
 * Int64 and timestamps are written as two int32 halves into the
 * BigInt64Array's buffer: every integer the engine makes is below 2^53,
 * and a BigInt made per value cost five times the rest of the column.
 */
import { Binary, Bool, Float64, Int64, makeData, TimeUnit, Timestamp, Utf8, type Data, type DataType } from 'apache-arrow';

const TWO_TO_32 = 4294967296;

/** What a column takes: a number (integers, times, booleans as 0/1), a text, bytes, or null. */
export type ColumnValue = number | string | Uint8Array | null;

export interface ArrowColumnBuilder {
  readonly type: DataType;
  /** Adds the next row's value; null (and, in a number column, any value that is not a number of the column) makes a null. */
  add(value: ColumnValue): void;
  /** Adds `values[from, to)` (a stored block's number column), null where `nulls` holds 1: as many add calls would. */
  addNumbers(values: Float64Array, from: number, to: number, nulls: Uint8Array | null): void;
  /** Adds nulls until the column holds `rows` rows (a column most rows leave empty is filled only where they have a value). */
  skipTo(rows: number): void;
  /** The rows added since the last take, as Arrow data; the builder starts again empty. */
  take(): Data;
}

/** The validity bitmap of a column: a bit per row, and whether any row is null. */
class Validity {
  bits: Uint8Array;
  nulls = 0;

  constructor(capacity: number) {
    this.bits = new Uint8Array((capacity + 7) >> 3);
  }

  set(at: number, valid: boolean): void {
    if (valid) this.bits[at >> 3] |= 1 << (at & 7);
    else this.nulls++;
  }

  /** Rows `from` to `to` null (their bits are 0 since the last take). */
  skip(from: number, to: number): void {
    this.nulls += to - from;
  }

  take(rows: number): Uint8Array | undefined {
    const bits = this.bits.slice(0, (rows + 7) >> 3);
    this.bits.fill(0);
    const any = this.nulls > 0;
    this.nulls = 0;
    return any ? bits : undefined;
  }
}

abstract class FixedWidthBuilder implements ArrowColumnBuilder {
  protected count = 0;
  protected readonly validity: Validity;

  constructor(
    readonly type: DataType,
    protected readonly capacity: number,
  ) {
    this.validity = new Validity(capacity);
  }

  abstract add(value: ColumnValue): void;
  abstract addNumbers(values: Float64Array, from: number, to: number, nulls: Uint8Array | null): void;
  protected abstract values(rows: number): ArrayBufferView;
  /** Zeroes the values of rows `from` to `to` (a null's value is 0, as add writes it). */
  protected abstract clear(from: number, to: number): void;

  skipTo(rows: number): void {
    if (rows <= this.count) return;
    this.validity.skip(this.count, rows);
    this.clear(this.count, rows);
    this.count = rows;
  }

  take(): Data {
    const length = this.count;
    this.count = 0;
    if (length > 0 && this.validity.nulls === length) {
      // Every row null (most ST 0601 item columns of most batches): its bitmap and values all zero bytes, shared.
      this.validity.nulls = 0;
      const bitmap = new Uint8Array(sharedZeros(length * this.valueBytes), 0, (length + 7) >> 3);
      return makeData({ type: this.type as Int64, length, data: this.zeroValues(length) as BigInt64Array, nullBitmap: bitmap, nullCount: -1 });
    }
    const nullBitmap = this.validity.take(length);
    return makeData({ type: this.type as Int64, length, data: this.values(length) as BigInt64Array, nullBitmap, nullCount: nullBitmap === undefined ? 0 : -1 });
  }

  /** Bytes a row's value takes (a bool's: one, enough for its bit). */
  protected abstract readonly valueBytes: number;
  /** `rows` zero values, over sharedZeros. */
  protected abstract zeroValues(rows: number): ArrayBufferView;
}

/**
 * Zero bytes, at least `bytes` of them, shared by the columns whose rows are all null (never written: a column of
 * nulls needs no values of its own, and a copy of a batch's 100 empty columns cost more than the rest of its take).
 */
function sharedZeros(bytes: number): ArrayBuffer {
  if (zeros.byteLength < bytes) zeros = new ArrayBuffer(Math.max(bytes, 2 * zeros.byteLength));
  return zeros;
}
let zeros = new ArrayBuffer(0);

/** Int64, or a timestamp (an int64 of its unit). */
export class Int64Builder extends FixedWidthBuilder {
  #halves: Int32Array;

  constructor(type: DataType, capacity: number) {
    super(type, capacity);
    this.#halves = new Int32Array(2 * capacity);
  }

  add(value: ColumnValue): void {
    const at = this.count++;
    const valid = typeof value === 'number' && Number.isSafeInteger(value);
    this.validity.set(at, valid);
    const number = valid ? value : 0;
    // Little-endian int64: the low half first (Arrow buffers are little-endian, as is every machine Node runs on here).
    if ((number | 0) === number) {
      // Most values fit in an int32 (a division per value cost more than the rest of the add).
      this.#halves[2 * at] = number;
      this.#halves[2 * at + 1] = number < 0 ? -1 : 0;
      return;
    }
    const high = Math.floor(number / TWO_TO_32);
    this.#halves[2 * at] = (number - high * TWO_TO_32) | 0;
    this.#halves[2 * at + 1] = high;
  }

  addNumbers(values: Float64Array, from: number, to: number, nulls: Uint8Array | null): void {
    const halves = this.#halves;
    const validity = this.validity;
    let at = this.count;
    for (let i = from; i < to; i++, at++) {
      const value = values[i];
      const valid = (nulls === null || nulls[i] === 0) && Number.isSafeInteger(value);
      validity.set(at, valid);
      const number = valid ? value : 0;
      if ((number | 0) === number) {
        halves[2 * at] = number;
        halves[2 * at + 1] = number < 0 ? -1 : 0;
      } else {
        const high = Math.floor(number / TWO_TO_32);
        halves[2 * at] = (number - high * TWO_TO_32) | 0;
        halves[2 * at + 1] = high;
      }
    }
    this.count = at;
  }

  protected clear(from: number, to: number): void {
    this.#halves.fill(0, 2 * from, 2 * to);
  }

  protected values(rows: number): BigInt64Array {
    return new BigInt64Array(this.#halves.slice(0, 2 * rows).buffer);
  }

  protected readonly valueBytes = 8;

  protected zeroValues(rows: number): BigInt64Array {
    return new BigInt64Array(sharedZeros(8 * rows), 0, rows);
  }
}

export class Float64Builder extends FixedWidthBuilder {
  #values: Float64Array;

  constructor(capacity: number) {
    super(new Float64(), capacity);
    this.#values = new Float64Array(capacity);
  }

  add(value: ColumnValue): void {
    const at = this.count++;
    const valid = typeof value === 'number';
    this.validity.set(at, valid);
    this.#values[at] = valid ? value : 0;
  }

  addNumbers(values: Float64Array, from: number, to: number, nulls: Uint8Array | null): void {
    const at = this.count;
    // The numbers in one copy; then a null row's value made 0, as add makes it.
    this.#values.set(values.subarray(from, to), at);
    for (let i = from; i < to; i++) {
      const valid = nulls === null || nulls[i] === 0;
      this.validity.set(at + i - from, valid);
      if (!valid) this.#values[at + i - from] = 0;
    }
    this.count = at + to - from;
  }

  protected values(rows: number): Float64Array {
    return this.#values.slice(0, rows);
  }

  protected readonly valueBytes = 8;

  protected zeroValues(rows: number): Float64Array {
    return new Float64Array(sharedZeros(8 * rows), 0, rows);
  }

  protected clear(from: number, to: number): void {
    this.#values.fill(0, from, to);
  }
}

export class BoolBuilder extends FixedWidthBuilder {
  #bits: Uint8Array;

  constructor(capacity: number) {
    super(new Bool(), capacity);
    this.#bits = new Uint8Array((capacity + 7) >> 3);
  }

  add(value: ColumnValue): void {
    const at = this.count++;
    this.validity.set(at, value !== null);
    if (value === 1) this.#bits[at >> 3] |= 1 << (at & 7);
  }

  addNumbers(values: Float64Array, from: number, to: number, nulls: Uint8Array | null): void {
    for (let i = from; i < to; i++) this.add(nulls !== null && nulls[i] === 1 ? null : values[i]);
  }

  protected values(rows: number): Uint8Array {
    const bits = this.#bits.slice(0, (rows + 7) >> 3);
    this.#bits.fill(0);
    return bits;
  }

  protected readonly valueBytes = 1;

  protected zeroValues(rows: number): Uint8Array {
    return new Uint8Array(sharedZeros(rows), 0, (rows + 7) >> 3);
  }

  protected clear(): void {
    // Bits are 0 since the last take.
  }
}

/** A text or bytes value up to this length is copied in a loop (see VariableWidthBuilder#addText). */
const SHORT_VALUE = 64;

const HEX_DIGITS = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/** Utf8 (texts, JSON text) or Binary (bytes): int32 offsets and the bytes one after the other. */
export class VariableWidthBuilder implements ArrowColumnBuilder {
  #count = 0;
  #offsets: Int32Array;
  #data = Buffer.allocUnsafe(64 * 1024);
  #used = 0;
  readonly #validity: Validity;

  constructor(
    readonly type: Utf8 | Binary,
    capacity: number,
  ) {
    this.#offsets = new Int32Array(capacity + 1);
    this.#validity = new Validity(capacity);
  }

  #room(bytes: number): void {
    if (this.#used + bytes <= this.#data.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.#data.length, this.#used + bytes));
    this.#data.copy(grown, 0, 0, this.#used);
    this.#data = grown;
  }

  add(value: ColumnValue): void {
    const at = this.#count++;
    this.#validity.set(at, value !== null);
    if (typeof value === 'string') {
      this.#addText(value);
    } else if (value instanceof Uint8Array) {
      this.#addBytes(value);
    } else if (typeof value === 'number') {
      // A number's text is ASCII; a whole number's digits written here (String of a number cost more than the rest of the add).
      if (Number.isSafeInteger(value)) this.#addInteger(value);
      else this.#addText(String(value));
    }
    this.#offsets[at + 1] = this.#used;
  }

  addNumbers(values: Float64Array, from: number, to: number, nulls: Uint8Array | null): void {
    for (let i = from; i < to; i++) this.add(nulls !== null && nulls[i] === 1 ? null : values[i]);
  }

  /**
   * A text as UTF-8. Most texts here are short and ASCII (names, units, keys, a number's digits): copied a character
   * at a time, which costs a fifth of Buffer#write's call into C++ for each; any other through it.
   */
  #addText(text: string): void {
    const length = text.length;
    // UTF-8 takes at most three bytes per UTF-16 unit.
    this.#room(3 * length);
    const data = this.#data;
    let used = this.#used;
    if (length <= SHORT_VALUE) {
      let i = 0;
      for (; i < length; i++) {
        const code = text.charCodeAt(i);
        if (code >= 0x80) break;
        data[used + i] = code;
      }
      if (i === length) {
        this.#used = used + length;
        return;
      }
    }
    used += data.write(text, used, 'utf8');
    this.#used = used;
  }

  /** A safe integer's decimal digits, as String writes them (-0 as 0). */
  #addInteger(value: number): void {
    // At most 16 digits and a sign.
    this.#room(17);
    const data = this.#data;
    let used = this.#used;
    let rest = value;
    if (rest < 0) {
      data[used++] = 0x2d;
      rest = -rest;
    }
    let digits = 1;
    for (let power = 10; power <= rest; power *= 10) digits++;
    for (let at = used + digits - 1; at >= used; at--) {
      const next = Math.floor(rest / 10);
      data[at] = 0x30 + (rest - 10 * next);
      rest = next;
    }
    this.#used = used + digits;
  }

  #addBytes(bytes: Uint8Array): void {
    const length = bytes.length;
    this.#room(length);
    const data = this.#data;
    const used = this.#used;
    // As #addText: a short value byte by byte, a long one in one copy.
    if (length <= SHORT_VALUE) for (let i = 0; i < length; i++) data[used + i] = bytes[i];
    else data.set(bytes, used);
    this.#used = used + length;
  }

  skipTo(rows: number): void {
    if (rows <= this.#count) return;
    this.#validity.skip(this.#count, rows);
    this.#offsets.fill(this.#used, this.#count + 1, rows + 1);
    this.#count = rows;
  }

  /** Adds `bytes[start, end)` as two lower-case hex digits a byte (the text bytesToHex makes), without making the text. */
  addHexOf(bytes: Uint8Array, start: number, end: number): void {
    const at = this.#count++;
    this.#validity.set(at, true);
    this.#room(2 * (end - start));
    const data = this.#data;
    let used = this.#used;
    for (let i = start; i < end; i++) {
      data[used++] = HEX_DIGITS[bytes[i] >> 4];
      data[used++] = HEX_DIGITS[bytes[i] & 15];
    }
    this.#used = used;
    this.#offsets[at + 1] = used;
  }

  /** The bytes this batch's values took so far: where the next value's start. */
  get end(): number {
    return this.#used;
  }

  /** Adds a copy of `[start, end)` of this batch's bytes: a value (or part of one) added before, again. */
  addCopyOf(start: number, end: number): void {
    const at = this.#count++;
    this.#validity.set(at, true);
    this.#room(end - start);
    const data = this.#data;
    let used = this.#used;
    if (end - start <= SHORT_VALUE) for (let i = start; i < end; i++) data[used++] = data[i];
    else used += data.copy(data, used, start, end);
    this.#used = used;
    this.#offsets[at + 1] = used;
  }

  take(): Data {
    const length = this.#count;
    if (length > 0 && this.#validity.nulls === length && this.#used === 0) {
      // Every row null: its offsets and bitmap all zero bytes, shared (as a number column's, above).
      this.#count = 0;
      this.#validity.nulls = 0;
      const zeroOffsets = new Int32Array(sharedZeros(4 * (length + 1)), 0, length + 1);
      const bitmap = new Uint8Array(zeroOffsets.buffer, 0, (length + 7) >> 3);
      return makeData({ type: this.type as Utf8, length, data: new Uint8Array(0), valueOffsets: zeroOffsets, nullBitmap: bitmap, nullCount: -1 });
    }
    const valueOffsets = this.#offsets.slice(0, length + 1);
    const data = new Uint8Array(this.#data.subarray(0, this.#used));
    this.#count = 0;
    this.#used = 0;
    const nullBitmap = this.#validity.take(length);
    return makeData({ type: this.type as Utf8, length, data, valueOffsets, nullBitmap, nullCount: nullBitmap === undefined ? 0 : -1 });
  }
}

/** The kinds of column a dataset field becomes. */
export type ArrowColumnKind = 'int64' | 'float64' | 'bool' | 'utf8' | 'binary' | 'timestamp-us';

export function arrowTypeOf(kind: ArrowColumnKind): DataType {
  switch (kind) {
    case 'int64':
      return new Int64();
    case 'float64':
      return new Float64();
    case 'bool':
      return new Bool();
    case 'utf8':
      return new Utf8();
    case 'binary':
      return new Binary();
    case 'timestamp-us':
      return new Timestamp(TimeUnit.MICROSECOND, 'UTC');
  }
}

export function createColumnBuilder(kind: ArrowColumnKind, capacity: number): ArrowColumnBuilder {
  switch (kind) {
    case 'int64':
    case 'timestamp-us':
      return new Int64Builder(arrowTypeOf(kind), capacity);
    case 'float64':
      return new Float64Builder(capacity);
    case 'bool':
      return new BoolBuilder(capacity);
    case 'utf8':
      return new VariableWidthBuilder(new Utf8(), capacity);
    case 'binary':
      return new VariableWidthBuilder(new Binary(), capacity);
  }
}
