/**
 * A raw dataset as Arrow record batches (dataset-arrow-layout.ts), for the
 * columnar exports. Rows are read as the text exports read them
 * (datasetRows: blocks of packed kinds a row array filled again at each
 * step, table rows as sql.js steps them, klv/fields made from their
 * packets' items) and each value goes straight into its column's typed
 * arrays: no row object is made, but for a metadata packet (its items are
 * decoded to fill the ST 0601 columns) and a field made from an item (the
 * item is decoded).
 */
import { RecordBatch, Schema, Field, Struct, makeData, type Data } from 'apache-arrow';
import type { SqlValue } from 'sql.js';
import type { KlvItem } from '../../kernel/observations.js';
import { arrowTypeOf, createColumnBuilder, type ArrowColumnBuilder, type ColumnValue } from './arrow-column-builders.js';
import { datasetRows, type DatasetQuery, type DatasetRowMaker } from './dataset-query.js';
import type { DatasetParts } from './dataset-parts.js';
import { datasetArrowLayout, itemHasColumn, st0601ColumnIndex, st0601ColumnValue, type DatasetArrowLayout } from './dataset-arrow-layout.js';
import type { ItemField } from './klv-field-derivation.js';
import { decodeJsonValue } from './lossless-json.js';
import { ST0601_KEY_NAME } from './metadata-items-derivation.js';
import type { ObservationRowCodec } from './observation-row-codec.js';

/** Rows per record batch: 16 blocks of a packed kind; a batch of klv/fields is a few MB. */
export const DEFAULT_BATCH_ROWS = 65_536;

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
  /** Of each stored column: whether it holds JSON text (written as NDJSON writes its value). */
  readonly #json: boolean[];
  readonly #st0601Index: Map<number, number>;
  /** metadata-packet: where the row holds its items and its key name (-1 otherwise). */
  readonly #itemsAt: number;
  readonly #keyNameAt: number;
  rows = 0;

  constructor(
    readonly layout: DatasetArrowLayout,
    private readonly codec: ObservationRowCodec,
    capacity: number,
  ) {
    this.schema = arrowSchemaOf(layout);
    this.#builders = [...layout.stored, ...layout.st0601].map((field) => createColumnBuilder(field.kind, capacity));
    this.#storedCount = layout.stored.length;
    this.#json = [false, ...codec.columns.map((column) => column.type === 'json')];
    this.#st0601Index = st0601ColumnIndex(layout.st0601);
    const at = (property: string): number => (layout.st0601.length === 0 ? -1 : 1 + codec.columns.findIndex((column) => column.property === property));
    this.#itemsAt = at('items');
    this.#keyNameAt = at('keyName');
  }

  stored(row: readonly SqlValue[]): void {
    this.rows++;
    const builders = this.#builders;
    for (let c = 0; c < this.#storedCount; c++) {
      if (c === this.#itemsAt) continue;
      const value = row[c];
      builders[c].add(this.#json[c] ? plainJsonText(value) : (value));
    }
    if (this.#itemsAt >= 0) this.#items(row);
  }

  /** A metadata packet's items: each ST 0601 item into its column, what has none into `items`. */
  #items(row: readonly SqlValue[]): void {
    const items = this.codec.decodeDatasetRow(row).items as KlvItem[];
    const isSt0601 = row[this.#keyNameAt] === ST0601_KEY_NAME;
    const columns = this.layout.st0601;
    const values: unknown[] = new Array(columns.length);
    const set = new Array<boolean>(columns.length).fill(false);
    const rest: KlvItem[] = [];
    for (const item of items) {
      const index = isSt0601 && itemHasColumn(item, this.#st0601Index) ? (this.#st0601Index.get(item.tag) as number) : -1;
      if (index < 0) rest.push(item);
      else if (columns[index].spec.mayRepeat) ((values[index] ??= []) as unknown[]).push(item.value);
      else if (set[index]) rest.push(item);
      else {
        values[index] = item.value;
        set[index] = true;
      }
    }
    this.#builders[this.#itemsAt].add(rest.length === 0 ? null : JSON.stringify(rest));
    const first = this.#storedCount;
    for (let c = 0; c < columns.length; c++) this.#builders[first + c].add(st0601ColumnValue(columns[c], values[c]));
  }

  /** A klv/fields row made from its packet's item (klv-field-derivation.ts), in the klv-field columns' order. */
  made({ seq, packet, item }: ItemField): void {
    this.rows++;
    const b = this.#builders;
    b[0].add(seq);
    b[1].add(packet.offset);
    b[2].add(packet.packetIndex);
    b[3].add(packet.t);
    b[4].add(packet.pid);
    b[5].add(packet.klvIndex);
    b[6].add(item.tag);
    b[7].add(item.name);
    b[8].add(item.rawHex);
    // JSON.stringify as NDJSON writes it (a value it cannot write, undefined, is JSON null there too).
    b[9].add(JSON.stringify(item.value) ?? 'null');
    b[10].add(item.units);
  }

  take(): RecordBatch {
    const length = this.rows;
    this.rows = 0;
    const children: Data[] = this.#builders.map((builder) => builder.take());
    return new RecordBatch(this.schema, makeData({ type: new Struct(this.schema.fields), length, children, nullCount: 0 }));
  }
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
  // metadata packet's 150 columns in batches of a quarter as many rows.
  const rowsPerBatch = Math.max(1, Math.min(layout.st0601.length > 0 ? Math.ceil(batchRows / 4) : batchRows, total));
  const builder = new BatchBuilder(layout, query.codec, rowsPerBatch);
  if (query.dataset.kind === 'klv-field' && query.dataset.fields.join() !== KLV_FIELD_ORDER.join()) {
    throw new Error(`klv/fields columns changed (${query.dataset.fields.join()}): update BatchBuilder.made`);
  }
  const maker: DatasetRowMaker<void> = {
    stored: (_codec, row) => builder.stored(row),
    made: (field) => builder.made(field),
    pause: () => builder.rows >= rowsPerBatch,
  };
  const rows = datasetRows(parts, query, maker);
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
