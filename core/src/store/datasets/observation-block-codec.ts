/**
 * Observation rows packed in blocks. The kinds with the most rows (PCR,
 * PES, discontinuity, PID statistics, whose every column is a number; KLV
 * packets and metadata packets, which add text and bytes) are kept as
 * blocks of up to a few thousand consecutive rows of one kind, packed by
 * column into one BLOB of `observation_block`, so that storing them is one
 * insert per block and reading them one row and a few array reads, instead
 * of a statement step and a column read through sql.js per row (the most of
 * what replay and export spent outside the checks and the text, and a
 * sixth of the first stored inspection).
 *
 * Layout of a block of n rows, in the machine's byte order (as the point
 * blocks, point-block-codec.ts): a byte per column (`seq`, then each column)
 * naming its encoding, zero bytes up to a multiple of 8, then each column,
 * padded to 8: bytes (whole numbers 0..255: booleans, flags), the first value
 * as float64 and int32 steps from one row to the next (whole numbers that
 * change by less than 2^31 a row: seq, offsets, packet indexes, timestamps),
 * float64 (any other number: times in seconds, a PCR wrapping), texts (a
 * text or JSON column: the distinct texts as a JSON array, its UTF-8 length
 * as a uint32 before it, then a uint16 per row indexing them: a KLV packet's
 * key, carriage and names repeat in every row) or bytes (a blob column: a
 * uint32 length per row, then the bytes one after the other); then one byte
 * per row for each nullable column (1: null; a number column repeats the row
 * before, a text one holds ""). So a block takes about a third of the bytes
 * of its rows in tables. Reads give a row as the row codec takes it
 * (`[seq, ...columns]`, observation-row-codec.ts), so replay and export
 * decode and write it as a row stepped from a table; a metadata packet kept
 * as its triplet gets the triplet from the KLV packet block before it, as
 * the codec's select gets it from the table.
 *
 * A part holds a packed kind one way only: parts written before blocks
 * (observation schema 3, and schema 4 for the KLV kinds) as table rows,
 * read as they are; newer ones in blocks.
 */
import type { Database, SqlValue, Statement } from 'sql.js';
import type { ObservationKind } from '../../kernel/observations.js';
import { OBSERVATION_TABLE_LIST, type ObservationColumn } from './observation-columns.js';
import { rowCodecOf, type ObservationRowCodec } from './observation-row-codec.js';

export const OBSERVATION_BLOCK_TABLE = 'observation_block';
/** Rows per block at most: a block of PES rows is about 200 KB. */
export const OBSERVATION_BLOCK_ROWS = 4096;

const isNumeric = (column: ObservationColumn): boolean => column.type === 'integer' || column.type === 'real' || column.type === 'boolean';

/** The kinds stored in blocks: those whose every column is a number, and the KLV and metadata packets (a run's next most rows). */
export const PACKED_KINDS: ReadonlySet<ObservationKind> = new Set([
  ...OBSERVATION_TABLE_LIST.filter((table) => table.columns.every(isNumeric)).map((table) => table.kind),
  'klv-packet',
  'metadata-packet',
]);

/** What a column of `[seq, ...columns]` holds in a block being built: numbers, texts (text and JSON columns) or bytes. */
const enum ColumnKind {
  Number,
  Text,
  Bytes,
}

interface BlockLayout {
  /** The kind of each column: seq, then each column. */
  readonly kinds: readonly ColumnKind[];
  /** Row index (in `[seq, ...columns]`) of each nullable column, in flag column order. */
  readonly nullable: readonly number[];
}

function columnKind(column: ObservationColumn): ColumnKind {
  return isNumeric(column) ? ColumnKind.Number : column.type === 'blob' ? ColumnKind.Bytes : ColumnKind.Text;
}

function layoutOf(columns: readonly ObservationColumn[]): BlockLayout {
  const nullable: number[] = [];
  columns.forEach((column, index) => {
    if (column.nullable || column.optional || column.derivable) nullable.push(index + 1);
  });
  return { kinds: [ColumnKind.Number, ...columns.map(columnKind)], nullable };
}

/** How a column of a block is stored. */
const enum ColumnEncoding {
  Float64 = 0,
  Int32Steps = 1,
  Byte = 2,
  Texts = 3,
  Bytes = 4,
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

function numberBytes(encoding: ColumnEncoding, n: number): number {
  return padded(encoding === ColumnEncoding.Byte ? n : encoding === ColumnEncoding.Int32Steps ? 8 + 4 * n : 8 * n);
}

/** A text column's distinct texts and each row's index into them. */
class TextColumn {
  readonly indexes: Uint16Array;
  #texts: string[] = [];
  #indexOf = new Map<string, number>();
  #lastText: string | null = null;
  #lastIndex = 0;

  constructor(capacity: number) {
    this.indexes = new Uint16Array(capacity);
  }

  set(at: number, text: string): void {
    // Most rows repeat the row before (a stream's key, carriage and names): no lookup for those.
    if (text === this.#lastText) {
      this.indexes[at] = this.#lastIndex;
      return;
    }
    let index = this.#indexOf.get(text);
    if (index === undefined) {
      index = this.#texts.length;
      this.#texts.push(text);
      this.#indexOf.set(text, index);
    }
    this.indexes[at] = index;
    this.#lastText = text;
    this.#lastIndex = index;
  }

  /** The distinct texts as a JSON array in UTF-8, then empty for the next block. */
  takeTexts(): Buffer {
    const json = Buffer.from(JSON.stringify(this.#texts));
    this.clear();
    return json;
  }

  clear(): void {
    this.#texts = [];
    this.#indexOf = new Map();
    this.#lastText = null;
  }
}

/** A blob column: each row's length, and the bytes copied one after the other (the row's array is not kept). */
class BytesColumn {
  readonly lengths: Uint32Array;
  #data = new Uint8Array(64 * 1024);
  #used = 0;

  constructor(capacity: number) {
    this.lengths = new Uint32Array(capacity);
  }

  get used(): number {
    return this.#used;
  }

  set(at: number, value: Uint8Array): void {
    if (this.#used + value.length > this.#data.length) {
      const grown = new Uint8Array(Math.max(2 * this.#data.length, this.#used + value.length));
      grown.set(this.#data.subarray(0, this.#used));
      this.#data = grown;
    }
    this.#data.set(value, this.#used);
    this.#used += value.length;
    this.lengths[at] = value.length;
  }

  /** The bytes of the rows so far, then empty for the next block. */
  take(): Uint8Array {
    const data = this.#data.subarray(0, this.#used);
    this.#used = 0;
    return data;
  }

  clear(): void {
    this.#used = 0;
  }
}

const EMPTY_BYTES = new Uint8Array(0);
const UTF8 = new TextDecoder();

/** Rows of one packed kind gathered into columns until stored. */
export class ObservationBlockBuilder {
  readonly #layout: BlockLayout;
  /** Per column of `[seq, ...columns]`, the one of these its kind uses. */
  readonly #numbers: (Float64Array | null)[];
  readonly #texts: (TextColumn | null)[];
  readonly #bytes: (BytesColumn | null)[];
  readonly #flags: Uint8Array[];
  /** Per column of `[seq, ...columns]`, the index of its null flags in #flags, or -1. */
  readonly #flagOf: Int32Array;
  #count = 0;
  /** What takeForStatement() packs into, shared by every builder. */
  static #scratch = new Uint8Array(0);

  constructor(columns: readonly ObservationColumn[], readonly capacity = OBSERVATION_BLOCK_ROWS) {
    // A text column indexes its distinct texts with 16 bits.
    if (capacity > 65_536) throw new RangeError(`a block holds at most 65 536 rows, not ${capacity}`);
    this.#layout = layoutOf(columns);
    const { kinds } = this.#layout;
    this.#numbers = kinds.map((kind) => (kind === ColumnKind.Number ? new Float64Array(capacity) : null));
    this.#texts = kinds.map((kind) => (kind === ColumnKind.Text ? new TextColumn(capacity) : null));
    this.#bytes = kinds.map((kind) => (kind === ColumnKind.Bytes ? new BytesColumn(capacity) : null));
    this.#flags = this.#layout.nullable.map(() => new Uint8Array(capacity));
    this.#flagOf = new Int32Array(kinds.length).fill(-1);
    this.#layout.nullable.forEach((c, f) => (this.#flagOf[c] = f));
  }

  get count(): number {
    return this.#count;
  }

  get full(): boolean {
    return this.#count === this.capacity;
  }

  get firstSeq(): number {
    return (this.#numbers[0] as Float64Array)[0];
  }

  get lastSeq(): number {
    return (this.#numbers[0] as Float64Array)[this.#count - 1];
  }

  /** Adds a row as the row codec encodes it (`[seq, ...columns]`: numbers, texts and bytes, or null in nullable columns). */
  add(row: readonly SqlValue[]): void {
    const { kinds } = this.#layout;
    for (let c = 0; c < kinds.length; c++) {
      const value = row[c];
      const kind = kinds[c];
      if (kind === ColumnKind.Number) this.setNumber(c, value as number | null);
      // Long JSON text comes as its UTF-8 bytes (the row codec binds it so to a statement).
      else if (kind === ColumnKind.Text) this.setText(c, value instanceof Uint8Array ? UTF8.decode(value) : (value as string | null));
      else this.setBytes(c, value as Uint8Array | null);
    }
    this.endRow();
  }

  /*
   * A row column by column, without its array (the observation writer's way, observation-row-codec.ts):
   * set each column of `[seq, ...columns]` with the setter of its kind, then endRow().
   */

  /** Column `c` (a number column) of the row being added: a number, or null. */
  setNumber(c: number, value: number | null): void {
    const at = this.#count;
    const numbers = this.#numbers[c] as Float64Array;
    // A null repeats the value before it (its flag says null), so it never breaks a column's steps.
    numbers[at] = value ?? (at > 0 ? numbers[at - 1] : 0);
    this.#flag(c, at, value === null);
  }

  /** Column `c` (a text or JSON column) of the row being added: a text, or null. */
  setText(c: number, value: string | null): void {
    const at = this.#count;
    (this.#texts[c] as TextColumn).set(at, value ?? '');
    this.#flag(c, at, value === null);
  }

  /** Column `c` (a blob column) of the row being added: bytes, or null. */
  setBytes(c: number, value: Uint8Array | null): void {
    const at = this.#count;
    (this.#bytes[c] as BytesColumn).set(at, value ?? EMPTY_BYTES);
    this.#flag(c, at, value === null);
  }

  /** Ends the row whose every column was set. */
  endRow(): void {
    this.#count++;
  }

  #flag(c: number, at: number, isNull: boolean): void {
    const f = this.#flagOf[c];
    if (f >= 0) this.#flags[f][at] = isNull ? 1 : 0;
  }

  /** The block's bytes (a new array), then empty for the next rows. */
  take(): Uint8Array {
    return this.#pack((size) => new Uint8Array(size));
  }

  /**
   * The block's bytes as take() gives them, in an array that the next
   * takeForStatement() of any builder fills again: for a statement that
   * copies them at once (a bound blob). A block is up to 250 KB, and a fresh array for each cost
   * its pages faulted in (issue 34: 6 000 faults for the 2 GB recording).
   */
  takeForStatement(): Uint8Array {
    return this.#pack((size) => {
      const scratch = ObservationBlockBuilder.#scratch;
      if (scratch.byteLength < size) ObservationBlockBuilder.#scratch = new Uint8Array(Math.max(size, 2 * scratch.byteLength));
      // Zeroed as a new array is, for the padding.
      return ObservationBlockBuilder.#scratch.fill(0, 0, size).subarray(0, size);
    });
  }

  #pack(bytesOfSize: (size: number) => Uint8Array): Uint8Array {
    const n = this.#count;
    const { kinds } = this.#layout;
    const encodings = kinds.map((kind, c) =>
      kind === ColumnKind.Number ? encodingOf(this.#numbers[c] as Float64Array, n) : kind === ColumnKind.Text ? ColumnEncoding.Texts : ColumnEncoding.Bytes,
    );
    // The texts and the bytes of each column, made before the size is known.
    const texts = this.#texts.map((column) => column?.takeTexts() ?? null);
    const columnSize = (c: number): number => {
      const encoding = encodings[c];
      if (encoding === ColumnEncoding.Texts) return padded(4 + (texts[c] as Buffer).length) + padded(2 * n);
      if (encoding === ColumnEncoding.Bytes) return padded(4 * n) + padded((this.#bytes[c] as BytesColumn).used);
      return numberBytes(encoding, n);
    };
    const sizes = kinds.map((_, c) => columnSize(c));
    const head = padded(encodings.length);
    const size = head + sizes.reduce((sum, bytes) => sum + bytes, 0) + n * this.#flags.length;
    const bytes = bytesOfSize(size);
    bytes.set(encodings);
    let at = head;
    for (let c = 0; c < kinds.length; c++) {
      const encoding = encodings[c];
      if (encoding === ColumnEncoding.Texts) {
        const json = texts[c] as Buffer;
        new Uint32Array(bytes.buffer, at, 1)[0] = json.length;
        bytes.set(json, at + 4);
        const indexesAt = at + padded(4 + json.length);
        new Uint16Array(bytes.buffer, indexesAt, n).set((this.#texts[c] as TextColumn).indexes.subarray(0, n));
      } else if (encoding === ColumnEncoding.Bytes) {
        const column = this.#bytes[c] as BytesColumn;
        new Uint32Array(bytes.buffer, at, n).set(column.lengths.subarray(0, n));
        bytes.set(column.take(), at + padded(4 * n));
      } else {
        writeNumbers(bytes, at, encoding, this.#numbers[c] as Float64Array, n);
      }
      at += sizes[c];
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
    for (const column of this.#texts) column?.clear();
    for (const column of this.#bytes) column?.clear();
  }
}

function writeNumbers(bytes: Uint8Array, at: number, encoding: ColumnEncoding, values: Float64Array, n: number): void {
  if (encoding === ColumnEncoding.Byte) {
    bytes.set(values.subarray(0, n), at);
  } else if (encoding === ColumnEncoding.Int32Steps) {
    new Float64Array(bytes.buffer, at, 1)[0] = values[0];
    const steps = new Int32Array(bytes.buffer, at + 8, n);
    for (let i = 1; i < n; i++) steps[i] = values[i] - values[i - 1];
  } else {
    new Float64Array(bytes.buffer, at, n).set(values.subarray(0, n));
  }
}

/** A stored block's rows column by column (the columnar exports copy a number column whole). */
export interface PackedBlock {
  readonly rows: number;
  /** Column `c` of `[seq, ...columns]`: its numbers (of a null row, a number to ignore), or its value per row (texts and bytes). */
  column(c: number): Float64Array | readonly SqlValue[];
  /** Of column `c`: a byte per row, 1 where the row holds null; null when the column cannot hold null. */
  nullFlags(c: number): Uint8Array | null;
}

/**
 * The rows of one stored block, each column decoded when first read (a reader that wants two columns of a KLV packet
 * block, its seq and its bytes, does not decode the texts and numbers of the others).
 */
class ObservationBlockReader implements PackedBlock {
  readonly #own: Uint8Array;
  /** Per column of `[seq, ...columns]`: where it starts in the block, and its values once decoded. */
  readonly #at: number[] = [];
  readonly #columns: (Float64Array | readonly SqlValue[] | undefined)[] = [];
  readonly #flags: Uint8Array[] = [];

  constructor(
    private readonly layout: BlockLayout,
    bytes: Uint8Array,
    readonly rows: number,
    /** Bytes values as views of the block rather than copies (for a reader that is done with them before the block). */
    private readonly bytesAsViews = false,
  ) {
    // Typed arrays need aligned offsets: sql.js gives a blob its own buffer, but a copy costs little if not.
    const own = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
    this.#own = own;
    const base = own.byteOffset;
    let at = padded(layout.kinds.length);
    for (let c = 0; c < layout.kinds.length; c++) {
      this.#at.push(at);
      this.#columns.push(undefined);
      const encoding = own[c] as ColumnEncoding;
      if (encoding === ColumnEncoding.Texts) {
        const length = new Uint32Array(own.buffer, base + at, 1)[0];
        at += padded(4 + length) + padded(2 * rows);
      } else if (encoding === ColumnEncoding.Bytes) {
        const lengths = new Uint32Array(own.buffer, base + at, rows);
        let from = at + padded(4 * rows);
        for (let i = 0; i < rows; i++) from += lengths[i];
        at = padded(from);
      } else {
        at += numberBytes(encoding, rows);
      }
    }
    for (let f = 0; f < layout.nullable.length; f++, at += rows) this.#flags.push(own.subarray(at, at + rows));
  }

  seqAt(index: number): number {
    return (this.column(0) as Float64Array)[index];
  }

  column(c: number): Float64Array | readonly SqlValue[] {
    return (this.#columns[c] ??= this.#decode(c));
  }

  #decode(c: number): Float64Array | readonly SqlValue[] {
    const own = this.#own;
    const { rows } = this;
    const base = own.byteOffset;
    const at = this.#at[c];
    const encoding = own[c] as ColumnEncoding;
    if (encoding === ColumnEncoding.Texts) {
      const length = new Uint32Array(own.buffer, base + at, 1)[0];
      const texts = JSON.parse(Buffer.from(own.buffer, base + at + 4, length).toString('utf8')) as string[];
      const indexes = new Uint16Array(own.buffer, base + at + padded(4 + length), rows);
      const values = new Array<string>(rows);
      for (let i = 0; i < rows; i++) values[i] = texts[indexes[i]];
      return values;
    }
    if (encoding === ColumnEncoding.Bytes) {
      const lengths = new Uint32Array(own.buffer, base + at, rows);
      let from = at + padded(4 * rows);
      const values = new Array<Uint8Array>(rows);
      // Each value its own copy (a replayed KLV packet's `raw` outlives the block), unless views were asked for.
      for (let i = 0; i < rows; i++) {
        values[i] = this.bytesAsViews ? own.subarray(from, from + lengths[i]) : own.slice(from, from + lengths[i]);
        from += lengths[i];
      }
      return values;
    }
    return readNumbers(own, at, encoding, rows);
  }

  nullFlags(c: number): Uint8Array | null {
    const f = this.layout.nullable.indexOf(c);
    return f < 0 ? null : this.#flags[f];
  }

  /** Row `index` into `row`, as `[seq, ...columns]` (only the `columns` given, when given; the others as they were). */
  fill(index: number, row: SqlValue[], columns: readonly number[] | null): void {
    if (columns === null) {
      for (let c = 0; c < this.#columns.length; c++) row[c] = this.column(c)[index];
    } else {
      for (const c of columns) row[c] = this.column(c)[index];
    }
    const { nullable } = this.layout;
    for (let f = 0; f < nullable.length; f++) if (this.#flags[f][index] === 1) row[nullable[f]] = null;
  }
}

function readNumbers(own: Uint8Array, at: number, encoding: ColumnEncoding, rows: number): Float64Array {
  const base = own.byteOffset;
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
  return values;
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

/** What packedRows reads of a block's rows. */
export interface BlockRowsRead {
  /** Only these columns of `[seq, ...columns]` (the triplet's items column among them, when triplets are read); default all. */
  readonly columns?: readonly number[] | null;
  /** Bytes columns as views of the block's bytes (kept alive as long as one is), not copies. */
  readonly bytesAsViews?: boolean;
  /**
   * A metadata packet's triplet as a view of its KLV packet block, not a copy: for a reader done with the triplet
   * soon (not a replay, whose packets keep their triplet to decode their items when first read).
   */
  readonly tripletViews?: boolean;
}

/**
 * The rows of a packed kind in one database, in seq order: those after
 * `afterSeq`, then `skip` of them left out (whole blocks by their counts).
 * Yields one row array, filled again at each step: use it before the next.
 * A metadata packet's row ends with its triplet (the codec's select), unless
 * `triplets` is false (a replay that takes it from the KLV packet it replayed).
 * With `read.columns`, a block's row has only those columns of `[seq, ...columns]`
 * (and its triplet), the others as they were; a table row has them all.
 */
export function* packedRows(
  db: Database,
  codec: ObservationRowCodec,
  afterSeq: number,
  skip: number,
  triplets = true,
  { columns = null, bytesAsViews = false, tripletViews = false }: BlockRowsRead = {},
): Generator<SqlValue[], void, undefined> {
  let toSkip = skip;
  const withTriplets = codec.tripletColumn >= 0 && triplets;
  // A part written before blocks holds the kind as table rows.
  const stored = db.prepare(`${withTriplets || codec.tripletColumn < 0 ? codec.selectSql : codec.columnsSql} WHERE seq > ? ORDER BY seq`, [afterSeq]);
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
  const row = new Array<SqlValue>(layout.kinds.length + (withTriplets ? 1 : 0));
  const tripletOf = withTriplets ? new TripletFinder(db, tripletViews) : null;
  const items = 1 + codec.columns.findIndex((column) => column.derivable);
  try {
    while (blocks.step()) {
      const [rows, firstSeq, bytes] = blocks.get() as [number, number, Uint8Array];
      // The rows after afterSeq in this block: all of them unless it holds afterSeq.
      if (firstSeq > afterSeq && toSkip >= rows) {
        toSkip -= rows;
        continue;
      }
      const block = new ObservationBlockReader(layout, bytes, rows, bytesAsViews);
      let index = 0;
      while (index < rows && block.seqAt(index) <= afterSeq) index++;
      for (; index < rows; index++) {
        if (toSkip > 0) {
          toSkip--;
          continue;
        }
        block.fill(index, row, columns);
        // As TRIPLET_OF_PACKET_SQL: the raw bytes of the KLV packet at the seq before, for a packet kept as its triplet.
        if (tripletOf !== null) row[codec.tripletColumn] = row[items] === null ? tripletOf.at((row[0] as number) - 1) : null;
        yield row;
      }
    }
  } finally {
    blocks.free();
    tripletOf?.close();
  }
}

/**
 * Every row of a packed kind without a triplet column in one database, in seq order, as packedRows gives them but a
 * block at a time: the table rows of a part written before blocks (a row array each, filled again at each step),
 * then each block.
 */
export function* packedBlocks(db: Database, codec: ObservationRowCodec): Generator<SqlValue[] | PackedBlock, void, undefined> {
  if (codec.tripletColumn >= 0) throw new Error(`${codec.kind} rows take their triplets from the KLV packets: read them with packedRows`);
  const stored = db.prepare(`${codec.selectSql} ORDER BY seq`);
  try {
    while (stored.step()) yield stored.get();
  } finally {
    stored.free();
  }
  if (!hasObservationBlocks(db)) return;
  const layout = layoutOf(codec.columns);
  const blocks = db.prepare(`SELECT rows, columns FROM ${OBSERVATION_BLOCK_TABLE} WHERE kind = ? ORDER BY last_seq`, [codec.kind]);
  try {
    while (blocks.step()) {
      const [rows, bytes] = blocks.get() as [number, Uint8Array];
      yield new ObservationBlockReader(layout, bytes, rows);
    }
  } finally {
    blocks.free();
  }
}

const KLV_PACKET_CODEC = rowCodecOf('klv-packet') as unknown as ObservationRowCodec;
const RAW_COLUMN = 1 + KLV_PACKET_CODEC.columns.findIndex((column) => column.property === 'raw');
/** What TripletFinder reads of a KLV packet block. */
const SEQ_AND_RAW = [0, RAW_COLUMN];

/**
 * The raw bytes of the KLV packets of a database at the seqs asked for, in ascending order (null where none is).
 * Read from the first seq asked for (a page at an offset starts there, not at the first packet).
 */
class TripletFinder {
  #rows: Generator<SqlValue[], void, undefined> | null = null;
  #seq = 0;
  #raw: Uint8Array | null = null;
  #done = false;

  constructor(
    private readonly db: Database,
    private readonly views: boolean,
  ) {}

  at(seq: number): Uint8Array | null {
    this.#rows ??= packedRows(this.db, KLV_PACKET_CODEC, Math.max(0, seq - 1), 0, true, { columns: SEQ_AND_RAW, bytesAsViews: this.views });
    while (!this.#done && this.#seq < seq) {
      const next = this.#rows.next();
      if (next.done === true) {
        this.#done = true;
        break;
      }
      this.#seq = next.value[0] as number;
      this.#raw = next.value[RAW_COLUMN] as Uint8Array;
    }
    return this.#seq === seq ? this.#raw : null;
  }

  close(): void {
    this.#rows?.return();
  }
}
