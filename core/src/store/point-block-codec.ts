/**
 * A block of one check's points packed column by column into one BLOB: the
 * numbers of up to a few thousand points in typed arrays, so that storing
 * them is one insert, and reading them one row and a few array copies,
 * instead of a row (eight values bound or read one at a time through
 * sql.js) per point. What a point shares with its series (message,
 * severity, ...) is the series number here (run-check-points.ts).
 *
 * Layout, every column `points` long, in the machine's byte order (little
 * endian on every platform Node supports but s390x; a part is read where it
 * was written): t, offset, packetIndex, value as float64 (NaN, ±Infinity
 * and -0 stay exact), series and pid as int32, then one byte of flags per
 * point (bit 0: t is null, bit 1: value is null).
 */

const T_NULL = 1;
const VALUE_NULL = 2;
/** Bytes per point: four float64, two int32, one flag byte. */
const BYTES_PER_POINT = 4 * 8 + 2 * 4 + 1;

/** One decoded point of a block: its position and value, and its series. */
export interface PackedPoint {
  t: number | null;
  offset: number;
  packetIndex: number;
  pid: number;
  value: number | null;
  series: number;
}

/** Points of one check gathered into columns until the block is full. */
export class PointBlockBuilder {
  readonly #t: Float64Array;
  readonly #offset: Float64Array;
  readonly #packetIndex: Float64Array;
  readonly #value: Float64Array;
  readonly #series: Int32Array;
  readonly #pid: Int32Array;
  readonly #flags: Uint8Array;
  #count = 0;
  /** What takeForStatement() packs into, shared by every builder. */
  static #scratch = new Uint8Array(0);

  constructor(readonly capacity: number) {
    this.#t = new Float64Array(capacity);
    this.#offset = new Float64Array(capacity);
    this.#packetIndex = new Float64Array(capacity);
    this.#value = new Float64Array(capacity);
    this.#series = new Int32Array(capacity);
    this.#pid = new Int32Array(capacity);
    this.#flags = new Uint8Array(capacity);
  }

  get count(): number {
    return this.#count;
  }

  get full(): boolean {
    return this.#count === this.capacity;
  }

  add(t: number | null, offset: number, packetIndex: number, pid: number, value: number | null, series: number): void {
    const i = this.#count++;
    this.#t[i] = t ?? 0;
    this.#offset[i] = offset;
    this.#packetIndex[i] = packetIndex;
    this.#value[i] = value ?? 0;
    this.#series[i] = series;
    this.#pid[i] = pid;
    this.#flags[i] = (t === null ? T_NULL : 0) | (value === null ? VALUE_NULL : 0);
  }

  /** The block's bytes (a new array), and the builder emptied for the next block. */
  take(): Uint8Array {
    return this.#pack(new Uint8Array(this.#count * BYTES_PER_POINT));
  }

  /**
   * The block's bytes as take() gives them, in an array that the next
   * takeForStatement() of any builder fills again: for a statement that
   * copies them at once (a bound blob). A fresh array of a block's 160 KB for each cost its pages
   * faulted in (issue 34: 5 000 faults for the 2 GB recording's points).
   */
  takeForStatement(): Uint8Array {
    const size = this.#count * BYTES_PER_POINT;
    if (PointBlockBuilder.#scratch.byteLength < size) PointBlockBuilder.#scratch = new Uint8Array(size);
    // Every byte of the block is written: no zeroing needed.
    return this.#pack(PointBlockBuilder.#scratch.subarray(0, size));
  }

  #pack(bytes: Uint8Array): Uint8Array {
    const n = this.#count;
    let at = 0;
    for (const column of [this.#t, this.#offset, this.#packetIndex, this.#value, this.#series, this.#pid, this.#flags]) {
      const view = new Uint8Array(column.buffer, 0, n * column.BYTES_PER_ELEMENT);
      bytes.set(view, at);
      at += view.length;
    }
    this.#count = 0;
    return bytes;
  }
}

/** The points of a block, in order; `bytes` as take() made them. */
export function unpackPointBlock(bytes: Uint8Array, points: number): PackedPoint[] {
  if (bytes.length !== points * BYTES_PER_POINT) throw new RangeError(`a block of ${points} points has ${bytes.length} bytes, not ${points * BYTES_PER_POINT}`);
  // Copied to an aligned buffer: the BLOB sql.js returns may start at any byte.
  const aligned = new Uint8Array(bytes.length + 8);
  aligned.set(bytes);
  const { buffer } = aligned;
  const t = new Float64Array(buffer, 0, points);
  const offset = new Float64Array(buffer, 8 * points, points);
  const packetIndex = new Float64Array(buffer, 16 * points, points);
  const value = new Float64Array(buffer, 24 * points, points);
  const series = new Int32Array(buffer, 32 * points, points);
  const pid = new Int32Array(buffer, 36 * points, points);
  const flags = new Uint8Array(buffer, 40 * points, points);
  const out = new Array<PackedPoint>(points);
  for (let i = 0; i < points; i++) {
    out[i] = {
      t: (flags[i] & T_NULL) !== 0 ? null : t[i],
      offset: offset[i],
      packetIndex: packetIndex[i],
      pid: pid[i],
      value: (flags[i] & VALUE_NULL) !== 0 ? null : value[i],
      series: series[i],
    };
  }
  return out;
}
