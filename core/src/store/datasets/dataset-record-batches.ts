/**
 * A raw dataset as Arrow record batches (dataset-arrow-layout.ts), for the
 * columnar exports. Rows are read as the text exports read them
 * (datasetRows: blocks of packed kinds a row array filled again at each
 * step, table rows as sql.js steps them, klv/fields made from their
 * packets' items) and each value goes straight into its column's typed
 * arrays: no row object is made. An ST 0601 item kept in its packet's
 * triplet is read from the bytes (st0601-framed-value.ts): its value only
 * is decoded, for its column in `klv/metadata-packets` or its field's
 * `value`, the field's hex is written from the bytes and its name and units
 * are the tag table's, encoded once; only an item that goes to `items` (it
 * has no column, or the decoder marks it with an error) is decoded whole.
 */
import { RecordBatch, Schema, Field, Struct, makeData, type Data } from 'apache-arrow';
import type { SqlValue } from 'sql.js';
import type { KlvItem } from '../../kernel/observations.js';
import type { LocalSetItem } from '../../klv/local-set.js';
import { decodeSt0601ItemInto } from '../../klv/st0601-item.js';
import { st0601Item, type St0601ItemSpec } from '../../klv/st0601-items.js';
import { St0601ItemFrames } from '../../klv/st0601-item-frames.js';
import { arrowTypeOf, BoolBuilder, createColumnBuilder, Float64Builder, Int64Builder, VariableWidthBuilder, type ArrowColumnBuilder, type ColumnValue } from './arrow-column-builders.js';
import { datasetRows, type DatasetQuery, type DatasetRowMaker } from './dataset-query.js';
import { partRows, type DatasetParts } from './dataset-parts.js';
import { datasetArrowLayout, itemHasColumn, st0601ColumnIndex, st0601ColumnValue, type DatasetArrowLayout } from './dataset-arrow-layout.js';
import type { ItemField } from './klv-field-derivation.js';
import { FieldValueTexts } from './field-value-texts.js';
import { decodeJsonValue } from './lossless-json.js';
import { itemsFromTriplet, ST0601_KEY_NAME } from './metadata-items-derivation.js';
import type { ObservationRowCodec } from './observation-row-codec.js';
import { packedBlocks, PACKED_KINDS, type PackedBlock } from './observation-block-codec.js';
import { NOT_DECODED, st0601FramedValue, st0601ValueAt } from './st0601-framed-value.js';

/** Rows per record batch: 16 blocks of a packed kind; a batch of klv/fields is a few MB. */
export const DEFAULT_BATCH_ROWS = 65_536;
/**
 * klv/metadata-packets (some 160 columns) is cut into batches this many times smaller: 4 096 rows, about 8 MB of
 * columns. A batch of 16 384 rows (30 MB, held two or three times over while it is made, written and, for Parquet,
 * handed to the writer) made a 2 GB run's Parquet export peak at 316 MB.
 */
export const WIDE_BATCH_DIVISOR = 16;

const TAGGED_JSON = 0x7e;

/** A stored JSON text as NDJSON writes its value: plain JSON as it is, the tagged form (lossless-json.ts) as JSON.stringify writes the value. */
function plainJsonText(text: SqlValue): ColumnValue {
  if (typeof text !== 'string') return text;
  return text.charCodeAt(0) === TAGGED_JSON ? JSON.stringify(decodeJsonValue(text)) : text;
}

export function arrowSchemaOf(layout: DatasetArrowLayout): Schema {
  return new Schema([...layout.stored, ...layout.st0601].map((field) => new Field(field.name, arrowTypeOf(field.kind), field.nullable)));
}

/** The builders of a batch, and how each kind of row fills them. */
class BatchBuilder {
  readonly schema: Schema;
  readonly #builders: ArrowColumnBuilder[];
  readonly #storedCount: number;
  /** The stored columns but `items` by their builder's class (a loop for each class: each call is to one class). */
  readonly #storedByClass: { int64: number[]; float64: number[]; bool: number[]; variable: number[] };
  /** Of each stored column: whether it holds JSON text (written as NDJSON writes its value). */
  readonly #json: boolean[];
  readonly #st0601Index: Map<number, number>;
  /** metadata-packet: where the row holds its items and its key name (-1 otherwise). */
  readonly #itemsAt: number;
  readonly #keyNameAt: number;
  /** metadata-packet: the values of the ST 0601 columns that may repeat of the row being added, and whether each column has one (reused row to row). */
  readonly #values: unknown[];
  readonly #set: Uint8Array;
  /** metadata-packet: of each ST 0601 column, 1 when its item may repeat (its values written as one JSON array). */
  readonly #repeats: Uint8Array;
  /** metadata-packet: each ST 0601 tag's column, -1 for none. */
  readonly #columnOfTag: Int16Array;
  readonly #frames = new St0601ItemFrames();
  /** The columns given a value in the row being added, in the order they were. */
  readonly #touched: number[] = [];
  /** klv/fields: each ST 0601 tag's name and units as UTF-8, made once. */
  readonly #tagTexts: ({ name: Uint8Array; units: Uint8Array | null } | undefined)[] = [];
  /** klv/fields: each tag's last value, its text found again by its bytes. */
  readonly #lastValues = new FieldValueTexts();
  rows = 0;

  constructor(
    readonly layout: DatasetArrowLayout,
    private readonly codec: ObservationRowCodec,
    capacity: number,
  ) {
    this.schema = arrowSchemaOf(layout);
    this.#builders = [...layout.stored, ...layout.st0601].map((field) => createColumnBuilder(field.kind, capacity));
    this.#storedCount = layout.stored.length;
    this.#storedByClass = { int64: [], float64: [], bool: [], variable: [] };
    this.#json = [false, ...codec.columns.map((column) => column.type === 'json')];
    this.#st0601Index = st0601ColumnIndex(layout.st0601);
    const at = (property: string): number => (layout.st0601.length === 0 ? -1 : 1 + codec.columns.findIndex((column) => column.property === property));
    this.#itemsAt = at('items');
    this.#keyNameAt = at('keyName');
    for (let c = 0; c < this.#storedCount; c++) {
      if (c === this.#itemsAt) continue;
      const builder = this.#builders[c];
      const list = builder instanceof Int64Builder ? 'int64' : builder instanceof Float64Builder ? 'float64' : builder instanceof BoolBuilder ? 'bool' : 'variable';
      this.#storedByClass[list].push(c);
    }
    this.#values = new Array<unknown>(layout.st0601.length);
    this.#set = new Uint8Array(layout.st0601.length);
    this.#repeats = Uint8Array.from(layout.st0601, (column) => (column.spec.mayRepeat ? 1 : 0));
    this.#columnOfTag = new Int16Array(Math.max(0, ...layout.st0601.map((column) => column.tag + 1))).fill(-1);
    layout.st0601.forEach((column, index) => (this.#columnOfTag[column.tag] = index));
  }

  stored(row: readonly SqlValue[]): void {
    this.rows++;
    const b = this.#builders;
    const { int64, float64, bool, variable } = this.#storedByClass;
    for (const c of int64) (b[c] as Int64Builder).add(row[c]);
    for (const c of float64) (b[c] as Float64Builder).add(row[c]);
    for (const c of bool) (b[c] as BoolBuilder).add(row[c]);
    for (const c of variable) (b[c] as VariableWidthBuilder).add(this.#json[c] ? plainJsonText(row[c]) : row[c]);
    if (this.#itemsAt >= 0) this.#items(row);
  }

  /**
   * Rows `[from, to)` of a stored block of a kind without ST 0601 columns, a column at a time: a number column copied
   * from the block's numbers, a text or bytes column value by value, as `stored` adds them.
   */
  block(block: PackedBlock, from: number, to: number): void {
    this.rows += to - from;
    const builders = this.#builders;
    for (let c = 0; c < this.#storedCount; c++) {
      const values = block.column(c);
      const nulls = block.nullFlags(c);
      const builder = builders[c];
      if (values instanceof Float64Array) {
        builder.addNumbers(values, from, to, nulls);
        continue;
      }
      const json = this.#json[c];
      for (let i = from; i < to; i++) builder.add(nulls !== null && nulls[i] === 1 ? null : json ? plainJsonText(values[i]) : values[i]);
    }
  }

  /** A metadata packet's items: each ST 0601 item into its column, what has none into `items`. */
  #items(row: readonly SqlValue[]): void {
    let rest: KlvItem[] | null = null;
    const itemsText = row[this.#itemsAt];
    const keyName = row[this.#keyNameAt] as string;
    const triplet = row[this.codec.tripletColumn];
    if (itemsText === null && triplet instanceof Uint8Array && keyName === ST0601_KEY_NAME) {
      // Kept as its ST 0601 triplet: the items' values read from the bytes, framed into one cursor (no object per
      // item), an item decoded only when it goes to `items`.
      const columnOf = this.#columnOfTag;
      const frames = this.#frames.reset(triplet, 0, triplet.length);
      while (frames.next()) {
        const { tag, valueOffset, length } = frames;
        const index = tag < columnOf.length ? columnOf[tag] : -1;
        if (index >= 0) {
          const value = st0601ValueAt(triplet, tag, valueOffset, length);
          if (value !== NOT_DECODED && this.#place(index, value)) continue;
        }
        (rest ??= []).push(decodeSt0601ItemInto(tag, triplet, valueOffset, valueOffset + length, frames.tagOffset, null));
      }
    } else {
      const items = (itemsText === null ? itemsFromTriplet(triplet as Uint8Array | null, keyName, row[0] as number) : decodeJsonValue(itemsText as string)) as KlvItem[];
      const isSt0601 = keyName === ST0601_KEY_NAME;
      for (const item of items) {
        const index = isSt0601 && itemHasColumn(item, this.#st0601Index) ? (this.#st0601Index.get(item.tag) as number) : -1;
        if (index < 0 || !this.#place(index, item.value)) (rest ??= []).push(item);
      }
    }
    this.#builders[this.#itemsAt].add(rest === null ? null : JSON.stringify(rest));
    // Only the columns of the items the packet has are written (a single value as it is placed, an item that may
    // repeat once all its values are in); the others stay null (skipTo).
    const columns = this.layout.st0601;
    const at = this.rows - 1;
    const first = this.#storedCount;
    for (const index of this.#touched) {
      if (this.#repeats[index] === 1) {
        const builder = this.#builders[first + index];
        builder.skipTo(at);
        builder.add(st0601ColumnValue(columns[index], this.#values[index]));
        this.#values[index] = undefined;
      }
      this.#set[index] = 0;
    }
    this.#touched.length = 0;
  }

  /** Puts an item's value in its column; false for a second value of an item that may not repeat (it stays in `items`). */
  #place(index: number, value: unknown): boolean {
    const repeats = this.#repeats[index] === 1;
    if (this.#set[index] === 0) {
      this.#set[index] = 1;
      this.#touched.push(index);
      if (repeats) this.#values[index] = [value];
      else this.#write(index, value);
      return true;
    }
    if (!repeats) return false;
    (this.#values[index] as unknown[]).push(value);
    return true;
  }

  /**
   * A single item's value into row `rows - 1` of its column, as st0601ColumnValue gives it: a call site for each
   * builder class, so each call is to one class (a call to any of them cost several times the add).
   */
  #write(index: number, value: unknown): void {
    const builder = this.#builders[this.#storedCount + index];
    const at = this.rows - 1;
    switch (this.layout.st0601[index].kind) {
      case 'int64':
      case 'timestamp-us': {
        const column = builder as Int64Builder;
        column.skipTo(at);
        column.add(typeof value === 'number' ? value : null);
        return;
      }
      case 'float64': {
        const column = builder as Float64Builder;
        column.skipTo(at);
        column.add(typeof value === 'number' ? value : null);
        return;
      }
      case 'utf8': {
        const column = builder as VariableWidthBuilder;
        column.skipTo(at);
        column.add(st0601ColumnValue(this.layout.st0601[index], value));
        return;
      }
      default:
        builder.skipTo(at);
        builder.add(st0601ColumnValue(this.layout.st0601[index], value));
    }
  }

  /** A klv/fields row made from its packet's item (klv-field-derivation.ts), in the klv-field columns' order. */
  made(field: ItemField): void {
    this.rows++;
    const b = this.#builders;
    const { packet } = field;
    b[0].add(field.seq);
    b[1].add(packet.offset);
    b[2].add(packet.packetIndex);
    b[3].add(packet.t);
    b[4].add(packet.pid);
    b[5].add(packet.klvIndex);
    // An ST 0601 item still as its bytes: its columns written from them, unless the decoder would mark it with an error.
    const { triplet, span } = field;
    if (span != null && triplet != null && this.#fieldFromBytes(triplet, span)) return;
    const { item } = field;
    b[6].add(item.tag);
    b[7].add(item.name);
    b[8].add(item.rawHex);
    // JSON.stringify as NDJSON writes it (a value it cannot write, undefined, is JSON null there too).
    b[9].add(JSON.stringify(item.value) ?? 'null');
    b[10].add(item.units);
  }

  /**
   * The item's columns from its bytes, as the decoded item would fill them (its name and units the tag table's, as
   * the decoder takes them; its hex written from the bytes); false, having added nothing, when it has no value.
   */
  #fieldFromBytes(triplet: Uint8Array, span: LocalSetItem): boolean {
    const { tag, valueOffset, length } = span;
    const b = this.#builders;
    const valueColumn = b[9] as VariableWidthBuilder;
    // The bytes of the tag's value in the packet before (in this batch): its text again, the item not decoded.
    const repeated = this.#lastValues.find(tag, triplet, valueOffset, length);
    let value: unknown = null;
    if (repeated < 0) {
      value = st0601FramedValue(triplet, span);
      if (value === NOT_DECODED) return false;
    }
    const spec = st0601Item(tag) as St0601ItemSpec;
    const texts = (this.#tagTexts[tag] ??= { name: Buffer.from(spec.name), units: spec.units === null ? null : Buffer.from(spec.units) });
    b[6].add(tag);
    b[7].add(texts.name);
    (b[8] as VariableWidthBuilder).addHexOf(triplet, valueOffset, valueOffset + length);
    if (repeated >= 0) {
      valueColumn.addCopyOf(repeated, this.#lastValues.textEnd(tag));
    } else {
      const textStart = valueColumn.end;
      // A finite number's JSON is its String (what the text builder writes of a number); anything else as JSON.stringify writes it.
      valueColumn.add(typeof value === 'number' && Number.isFinite(value) ? value : (JSON.stringify(value) ?? 'null'));
      // A number or a text only: a nested set's value may hold where in the packet it lies (its problems' byteOffset).
      if (typeof value === 'number' || typeof value === 'string') this.#lastValues.remember(tag, triplet, valueOffset, length, textStart, valueColumn.end);
    }
    b[10].add(texts.units);
    return true;
  }

  take(): RecordBatch {
    const length = this.rows;
    this.rows = 0;
    this.#lastValues.clear();
    for (const builder of this.#builders) builder.skipTo(length);
    const children: Data[] = this.#builders.map((builder) => builder.take());
    return new RecordBatch(this.schema, makeData({ type: new Struct(this.schema.fields), length, children, nullCount: 0 }));
  }
}

/**
 * Every row of a packed kind (no filter, no paging) into the builder, block by block; pauses (its step yields) each
 * time the builder holds `rowsPerBatch` rows. Returns null: no row follows.
 */
function* blockRows(parts: DatasetParts, query: DatasetQuery, builder: BatchBuilder, rowsPerBatch: number): Generator<void, null, undefined> {
  const { kind } = query.dataset;
  for (let index = 0; index < parts.parts.length; index++) {
    if (partRows(parts.parts[index], kind, null) === 0) continue;
    const part = parts.open(index);
    try {
      for (const rows of packedBlocks(part.db, query.codec)) {
        if (Array.isArray(rows)) {
          // A row of a part written before blocks.
          builder.stored(rows);
          if (builder.rows >= rowsPerBatch) yield;
          continue;
        }
        const block = rows;
        for (let from = 0; from < block.rows; ) {
          const to = Math.min(block.rows, from + rowsPerBatch - builder.rows);
          builder.block(block, from, to);
          from = to;
          if (builder.rows >= rowsPerBatch) yield;
        }
      }
    } finally {
      part.release();
    }
  }
  return null;
}

// The order `made` fills: the klv-field observation's columns (observation-columns.ts); checked once here, so a change there cannot go unseen.
const KLV_FIELD_ORDER = ['seq', 'offset', 'packetIndex', 't', 'pid', 'klvIndex', 'tag', 'name', 'rawHex', 'value', 'units'];

/**
 * The query's rows as record batches of up to `batchRows` rows (`total`: the
 * rows the query will give at most); returns the cursor of the rows after
 * them (with a limit), as datasetRows does.
 */
export function* datasetRecordBatches(parts: DatasetParts, query: DatasetQuery, batchRows = DEFAULT_BATCH_ROWS, total = batchRows): Generator<RecordBatch, string | null, undefined> {
  const layout = datasetArrowLayout(query.dataset);
  // Columns sized for the rows there are (a small dataset need not allocate 65 536 rows of 150 columns), and a
  // metadata packet's 150 columns in batches of a sixteenth as many rows.
  const rowsPerBatch = Math.max(1, Math.min(layout.st0601.length > 0 ? Math.ceil(batchRows / WIDE_BATCH_DIVISOR) : batchRows, total));
  const builder = new BatchBuilder(layout, query.codec, rowsPerBatch);
  if (query.dataset.kind === 'klv-field' && query.dataset.fields.join() !== KLV_FIELD_ORDER.join()) {
    throw new Error(`klv/fields columns changed (${query.dataset.fields.join()}): update BatchBuilder.made`);
  }
  const maker: DatasetRowMaker<void> = {
    stored: (_codec, row) => builder.stored(row),
    made: (field) => builder.made(field),
    pause: () => builder.rows >= rowsPerBatch,
  };
  // Every row of a packed kind without ST 0601 columns: its blocks column by column, not a row at a time.
  const whole = query.filterValues === null && query.afterSeq === null && query.offset === 0 && query.limit === null;
  const rows = whole && PACKED_KINDS.has(query.dataset.kind) && query.codec.tripletColumn < 0 ? blockRows(parts, query, builder, rowsPerBatch) : datasetRows(parts, query, maker);
  let nextCursor: string | null;
  let batches = 0;
  try {
    for (let step = rows.next(); ; step = rows.next()) {
      if (step.done === true) {
        nextCursor = step.value;
        break;
      }
      batches++;
      yield builder.take();
    }
  } finally {
    rows.return(null);
  }
  // The last rows; an empty dataset is one empty batch (a Parquet writer given no batch writes no file).
  if (builder.rows > 0 || batches === 0) yield builder.take();
  return nextCursor;
}
