/**
 * Observation rows packed in blocks. The kinds whose every column is a
 * number (PCR, PES, discontinuity, PID statistics: the most rows a run
 * stores) are kept as blocks of up to a few thousand consecutive rows of one
 * kind, packed by column into one BLOB of `observation_block`, so that
 * storing them is one insert per block and reading them one row and a few
 * array reads, instead of a statement step and a column read through sql.js
 * per row (the most of what replay and export spent outside the checks and
 * the text).
 *
 * Layout of a block of n rows, in the machine's byte order (as the point
 * blocks, point-block-codec.ts): a byte per column (`seq`, then each column)
 * naming its encoding, zero bytes up to a multiple of 8, then each column,
 * padded to 8: bytes (whole numbers 0..255: booleans, flags), the first value
 * as float64 and int32 steps from one row to the next (whole numbers that
 * change by less than 2^31 a row: seq, offsets, packet indexes, timestamps),
 * or float64 (anything else: times in seconds, a PCR wrapping); then one byte
 * per row for each nullable column (1: null; the column repeats the row
 * before). So a block takes about a third of the bytes of its rows in
 * tables. Reads give a row as the row codec takes it (`[seq, ...columns]`,
 * observation-row-codec.ts), so replay and export decode and write it as a
 * row stepped from a table.
 *
 * A part holds a packed kind one way only: parts written before blocks
 * (observation schema 3) as table rows, read as they are; newer ones in
 * blocks.
 */
import type { Database, SqlValue, Statement } from 'sql.js';
import type { ObservationKind } from '../../kernel/observations.js';
import { OBSERVATION_TABLE_LIST, type ObservationColumn } from './observation-columns.js';
import type { ObservationRowCodec } from './observation-row-codec.js';

export const OBSERVATION_BLOCK_TABLE = 'observation_block';
/** Rows per block at most: a block of PES rows is about 200 KB. */
export const OBSERVATION_BLOCK_ROWS = 4096;

const isNumeric = (column: ObservationColumn): boolean => column.type === 'integer' || column.type === 'real' || column.type === 'boolean';

/** The kinds stored in blocks: those whose every column is a number. */
export const PACKED_KINDS: ReadonlySet<ObservationKind> = new Set(OBSERVATION_TABLE_LIST.filter((table) => table.columns.every(isNumeric)).map((table) => table.kind));

interface BlockLayout {
  /** Float64 columns: seq, then each column. */
  readonly numbers: number;
  /** Row index (in `[seq, ...columns]`) of each nullable column, in flag column order. */
  readonly nullable: readonly number[];
}

function layoutOf(columns: readonly ObservationColumn[]): BlockLayout {
  const nullable: number[] = [];
  columns.forEach((column, index) => {
    if (column.nullable) nullable.push(index + 1);
  });
  return { numbers: columns.length + 1, nullable };
}

/** How a column of a block is stored. */
const enum ColumnEncoding {
  Float64 = 0,
  Int32Steps = 1,
  Byte = 2,
}

const padded = (bytes: number): number => Math.ceil(bytes / 8) * 8;

function encodingOf(values: Float64Array, n: number): ColumnEncoding {
  let bytes = true;
  let steps = true;
  for (let i = 0; i < n && (bytes || steps); i++) {
    const value = values[i];
    // -0 and fractions stay float64, so every value comes back exactly.
    if (!Number.isInteger(value) || Object.is(value, -0)) return ColumnEncoding.Float64;
    if (value < 0 || value > 255) bytes = false;
    if (i > 0) {
      const step = value - values[i - 1];
      if (step < -0x80000000 || step > 0x7fffffff) steps = false;
    }
  }
  return bytes ? ColumnEncoding.Byte : steps ? ColumnEncoding.Int32Steps : ColumnEncoding.Float64;
}

function encodedBytes(encoding: ColumnEncoding, n: number): number {
  return padded(encoding === ColumnEncoding.Byte ? n : encoding === ColumnEncoding.Int32Steps ? 8 + 4 * n : 8 * n);
}

/** Rows of one packed kind gathered into columns until stored. */
export class ObservationBlockBuilder {
  readonly #layout: BlockLayout;
  readonly #numbers: Float64Array[];
  readonly #flags: Uint8Array[];
  #count = 0;

  constructor(columns: readonly ObservationColumn[], readonly capacity = OBSERVATION_BLOCK_ROWS) {
    this.#layout = layoutOf(columns);
    this.#numbers = Array.from({ length: this.#layout.numbers }, () => new Float64Array(capacity));
    this.#flags = this.#layout.nullable.map(() => new Uint8Array(capacity));
  }

  get count(): number {
    return this.#count;
  }

  get full(): boolean {
    return this.#count === this.capacity;
  }

  get firstSeq(): number {
    return this.#numbers[0][0];
  }

  get lastSeq(): number {
    return this.#numbers[0][this.#count - 1];
  }

  /** Adds a row as the row codec encodes it (`[seq, ...columns]`: numbers, or null in nullable columns). */
  add(row: readonly SqlValue[]): void {
    const at = this.#count++;
    for (let c = 0; c < this.#numbers.length; c++) {
      const value = row[c] as number | null;
      // A null repeats the value before it (its flag says null), so it never breaks a column's steps.
      this.#numbers[c][at] = value ?? (at > 0 ? this.#numbers[c][at - 1] : 0);
    }
    const { nullable } = this.#layout;
    for (let f = 0; f < nullable.length; f++) this.#flags[f][at] = row[nullable[f]] === null ? 1 : 0;
  }

  /** The block's bytes, then empty for the next rows. */
  take(): Uint8Array {
    const n = this.#count;
    const encodings = this.#numbers.map((values) => encodingOf(values, n));
    const head = padded(encodings.length);
    const size = head + encodings.reduce((sum, encoding) => sum + encodedBytes(encoding, n), 0) + n * this.#flags.length;
    const bytes = new Uint8Array(size);
    bytes.set(encodings);
    let at = head;
    this.#numbers.forEach((values, c) => {
      const encoding = encodings[c];
      if (encoding === ColumnEncoding.Byte) {
        bytes.set(values.subarray(0, n), at);
      } else if (encoding === ColumnEncoding.Int32Steps) {
        new Float64Array(bytes.buffer, at, 1)[0] = values[0];
        const steps = new Int32Array(bytes.buffer, at + 8, n);
        for (let i = 1; i < n; i++) steps[i] = values[i] - values[i - 1];
      } else {
        new Float64Array(bytes.buffer, at, n).set(values.subarray(0, n));
      }
      at += encodedBytes(encoding, n);
    });
    for (const flags of this.#flags) {
      bytes.set(flags.subarray(0, n), at);
      at += n;
    }
    this.#count = 0;
    return bytes;
  }

  clear(): void {
    this.#count = 0;
  }
}

/** The rows of one stored block, its columns decoded into numbers. */
class ObservationBlockReader {
  readonly #numbers: Float64Array[] = [];
  readonly #flags: Uint8Array[] = [];

  constructor(
    private readonly layout: BlockLayout,
    bytes: Uint8Array,
    readonly rows: number,
  ) {
    // Typed arrays need aligned offsets: sql.js gives a blob its own buffer, but a copy costs little if not.
    const own = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
    const base = own.byteOffset;
    let at = padded(layout.numbers);
    for (let c = 0; c < layout.numbers; c++) {
      const encoding = own[c] as ColumnEncoding;
      const values = new Float64Array(rows);
      if (encoding === ColumnEncoding.Byte) {
        values.set(own.subarray(at, at + rows));
      } else if (encoding === ColumnEncoding.Int32Steps) {
        const steps = new Int32Array(own.buffer, base + at + 8, rows);
        let value = new Float64Array(own.buffer, base + at, 1)[0];
        values[0] = value;
        for (let i = 1; i < rows; i++) values[i] = value += steps[i];
      } else {
        values.set(new Float64Array(own.buffer, base + at, rows));
      }
      this.#numbers.push(values);
      at += encodedBytes(encoding, rows);
    }
    for (let f = 0; f < layout.nullable.length; f++, at += rows) this.#flags.push(own.subarray(at, at + rows));
  }

  seqAt(index: number): number {
    return this.#numbers[0][index];
  }

  /** Row `index` into `row`, as `[seq, ...columns]`. */
  fill(index: number, row: SqlValue[]): void {
    for (let c = 0; c < this.#numbers.length; c++) row[c] = this.#numbers[c][index];
    const { nullable } = this.layout;
    for (let f = 0; f < nullable.length; f++) if (this.#flags[f][index] === 1) row[nullable[f]] = null;
  }
}

const blockTables = new WeakMap<Database, boolean>();

/** Whether the database has the block table (parts written before blocks have not). */
export function hasObservationBlocks(db: Database): boolean {
  let has = blockTables.get(db);
  if (has === undefined) {
    const [result] = db.exec(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '${OBSERVATION_BLOCK_TABLE}'`);
    has = Number(result.values[0][0]) > 0;
    blockTables.set(db, has);
  }
  return has;
}

/** The statement that stores a block (bind kind, first and last seq, rows and the bytes). */
export function prepareBlockInsert(db: Database): Statement {
  return db.prepare(`INSERT INTO ${OBSERVATION_BLOCK_TABLE} (kind, first_seq, last_seq, rows, columns) VALUES (?, ?, ?, ?, ?)`);
}

/** Of each kind stored in blocks: its rows and its last seq. */
export function blockRowsByKind(db: Database): Map<ObservationKind, { rows: number; lastSeq: number }> {
  const byKind = new Map<ObservationKind, { rows: number; lastSeq: number }>();
  if (!hasObservationBlocks(db)) return byKind;
  const [result] = db.exec(`SELECT kind, sum(rows), max(last_seq) FROM ${OBSERVATION_BLOCK_TABLE} GROUP BY kind`);
  for (const [kind, rows, lastSeq] of result?.values ?? []) byKind.set(kind as ObservationKind, { rows: Number(rows), lastSeq: Number(lastSeq) });
  return byKind;
}

/**
 * The rows of a packed kind in one database, in seq order: those after
 * `afterSeq`, then `skip` of them left out (whole blocks by their counts).
 * Yields one row array, filled again at each step: use it before the next.
 */
export function* packedRows(db: Database, codec: ObservationRowCodec, afterSeq: number, skip: number): Generator<SqlValue[], void, undefined> {
  let toSkip = skip;
  // A part written before blocks holds the kind as table rows.
  const stored = db.prepare(`${codec.selectSql} WHERE seq > ? ORDER BY seq`, [afterSeq]);
  try {
    while (stored.step()) {
      if (toSkip > 0) toSkip--;
      else yield stored.get();
    }
  } finally {
    stored.free();
  }
  if (!hasObservationBlocks(db)) return;
  const layout = layoutOf(codec.columns);
  const blocks = db.prepare(`SELECT rows, first_seq, columns FROM ${OBSERVATION_BLOCK_TABLE} WHERE kind = ? AND last_seq > ? ORDER BY last_seq`, [codec.kind, afterSeq]);
  const row = new Array<SqlValue>(layout.numbers);
  try {
    while (blocks.step()) {
      const [rows, firstSeq, bytes] = blocks.get() as [number, number, Uint8Array];
      // The rows after afterSeq in this block: all of them unless it holds afterSeq.
      if (firstSeq > afterSeq && toSkip >= rows) {
        toSkip -= rows;
        continue;
      }
      const block = new ObservationBlockReader(layout, bytes, rows);
      let index = 0;
      while (index < rows && block.seqAt(index) <= afterSeq) index++;
      for (; index < rows; index++) {
        if (toSkip > 0) {
          toSkip--;
          continue;
        }
        block.fill(index, row);
        yield row;
      }
    }
  } finally {
    blocks.free();
  }
}
