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
 * blocks, point-block-codec.ts): `seq` and each column as float64 (n each,
 * integers below 2^53 and booleans as 0/1 are exact), then one byte per row
 * for each nullable column (1: null). Reads give a row as the row codec
 * takes it (`[seq, ...columns]`, observation-row-codec.ts), so replay and
 * export decode and write it as a row stepped from a table.
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
    const { nullable } = this.#layout;
    for (let c = 0; c < this.#numbers.length; c++) this.#numbers[c][at] = (row[c] as number | null) ?? 0;
    for (let f = 0; f < nullable.length; f++) this.#flags[f][at] = row[nullable[f]] === null ? 1 : 0;
  }

  /** The block's bytes (a copy), then empty for the next rows. */
  take(): Uint8Array {
    const n = this.#count;
    const bytes = new Uint8Array(n * (8 * this.#numbers.length + this.#flags.length));
    let at = 0;
    for (const column of this.#numbers) {
      bytes.set(new Uint8Array(column.buffer, 0, n * 8), at);
      at += n * 8;
    }
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

/** The rows of one stored block, read into a row array. */
class ObservationBlockReader {
  readonly #numbers: Float64Array[] = [];
  readonly #flags: Uint8Array[] = [];

  constructor(
    private readonly layout: BlockLayout,
    bytes: Uint8Array,
    readonly rows: number,
  ) {
    // Float64Array needs an aligned offset: sql.js gives a blob its own buffer, but a copy costs little if not.
    const own = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
    let at = own.byteOffset;
    for (let c = 0; c < layout.numbers; c++, at += rows * 8) this.#numbers.push(new Float64Array(own.buffer, at, rows));
    for (let f = 0; f < layout.nullable.length; f++, at += rows) this.#flags.push(new Uint8Array(own.buffer, at, rows));
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
