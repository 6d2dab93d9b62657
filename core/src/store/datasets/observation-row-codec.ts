/**
 * Observations to table rows and back, driven by the column layout
 * (observation-columns.ts). A row is `[seq, ...columns]` as sql.js binds and
 * returns it. Decoding gives an observation deep-equal to the one encoded
 * (same properties, optional ones absent when they were), or a dataset row:
 * the same fields without `kind`, with `seq`, bytes as hex and every column
 * present (an absent optional field is null there, so rows share one shape).
 */
import type { SqlValue } from 'sql.js';
import type { ObservationKind, ObservationOf } from '../../kernel/observations.js';
import { bytesToHex } from '../../klv/hex.js';
import { decodeJsonValue, encodeJsonValue } from './lossless-json.js';
import type { ObservationBlockBuilder } from './observation-block-codec.js';
import { storedRowWriter, type JsonTextBuffer } from './json-row-text.js';
import { ItemsOfTriplet, TRIPLET_OF_PACKET_SQL } from './metadata-items-derivation.js';
import { multiRowInsertSql } from './multi-row-insert.js';
import { OBSERVATION_TABLE_LIST, type ObservationColumn, type ObservationTable } from './observation-columns.js';

/** A raw dataset row: `seq` and the observation's fields, JSON-able. */
export type DatasetRow = Record<string, unknown>;

export interface ObservationRowCodec<K extends ObservationKind = ObservationKind> {
  readonly kind: K;
  readonly table: string;
  readonly columns: readonly ObservationColumn[];
  /** `INSERT INTO <table> (seq, ...) VALUES (?, ...)`. */
  readonly insertSql: string;
  /** `INSERT INTO <table> (seq, ...) VALUES (?, ...), (?, ...), …`: `rows` rows (multi-row-insert.ts). */
  insertRowsSql(rows: number): string;
  /** `SELECT seq, ... FROM <table>` (a metadata packet's triplet after the columns), to be followed by WHERE / ORDER BY. */
  readonly selectSql: string;
  /** `SELECT seq, ... FROM <table>`: the columns alone (a metadata packet's triplet left for the reader to put at `tripletColumn`). */
  readonly columnsSql: string;
  /** Where selectSql puts a metadata packet's triplet in the row; -1 for the other kinds. */
  readonly tripletColumn: number;
  /** The dataset row's field names, in column order: `seq` first. */
  readonly datasetFields: readonly string[];
  /**
   * Fills `row` with `[seq, ...columns]` of the observation (a row array reused across calls), from index `at`
   * on (a row of a multi-row statement's values); with `itemsFromTriplet`, a metadata packet's items are left
   * NULL (metadata-items-derivation.ts).
   */
  encode(observation: ObservationOf<K>, seq: number, row: SqlValue[], itemsFromTriplet?: boolean, at?: number): void;
  /**
   * Adds the row encode() makes to a block being built (observation-block-codec.ts), column by column:
   * no row array, no number boxed in it, and JSON as text (not the UTF-8 bytes a statement is given).
   */
  encodeIntoBlock(observation: ObservationOf<K>, seq: number, block: ObservationBlockBuilder, itemsFromTriplet?: boolean): void;
  decodeObservation(row: readonly SqlValue[]): ObservationOf<K>;
  decodeDatasetRow(row: readonly SqlValue[]): DatasetRow;
  /** Writes JSON.stringify(decodeDatasetRow(row)), without making the object (json-row-text.ts). */
  writeDatasetRow(row: readonly SqlValue[], out: JsonTextBuffer): void;
}

function quoted(identifier: string): string {
  return `"${identifier}"`;
}

// sql.js encodes a bound string to UTF-8 in JavaScript, a character at a time: for long JSON text (kilobytes per
// metadata packet) binding the bytes of the native encoder, cast back to TEXT in SQL, measured twice as fast; for
// short text (most KLV values) the encoder's call costs more than it saves.
const utf8 = new TextEncoder();
const LONG_TEXT = 256;

function jsonText(value: unknown): string | Uint8Array {
  const text = encodeJsonValue(value);
  return text.length < LONG_TEXT ? text : utf8.encode(text);
}

function placeholder(column: ObservationColumn): string {
  return column.type === 'json' ? 'CAST(? AS TEXT)' : '?';
}

function encodeValue(column: ObservationColumn, value: unknown): SqlValue {
  if (value === undefined && column.optional) return null;
  switch (column.type) {
    case 'boolean':
      return value ? 1 : 0;
    case 'json':
      return value === null && column.nullable ? null : jsonText(value);
    default:
      // integer, real, text, blob: sql.js binds numbers, strings, Uint8Array and null as they are.
      return value as SqlValue;
  }
}

/** How a column's value goes into a block (encodeIntoBlock): as encodeValue() encodes it, by the column's type. */
const enum BlockCell {
  Number,
  Boolean,
  Text,
  Json,
  Bytes,
}

function blockCellOf(column: ObservationColumn): BlockCell {
  switch (column.type) {
    case 'integer':
    case 'real':
      return BlockCell.Number;
    case 'boolean':
      return BlockCell.Boolean;
    case 'text':
      return BlockCell.Text;
    case 'json':
      return BlockCell.Json;
    default:
      return BlockCell.Bytes;
  }
}

function decodeValue(column: ObservationColumn, value: SqlValue): unknown {
  switch (column.type) {
    case 'boolean':
      return value === 1;
    case 'json':
      return value === null ? null : decodeJsonValue(value as string);
    default:
      return value;
  }
}

/** A stored NULL in an optional column means the property was absent. */
function isAbsent(column: ObservationColumn, value: SqlValue): boolean {
  return column.optional && value === null;
}

function datasetFieldName(column: ObservationColumn): string {
  return column.type === 'blob' ? `${column.property}Hex` : column.property;
}

/**
 * Of a metadata packet stored as its triplet (metadata-items-derivation.ts): the row's items column (NULL)
 * and what the select adds after the columns (the triplet), and the key name that picks the decoder.
 */
interface TripletItems {
  readonly items: number;
  readonly keyName: number;
  readonly triplet: number;
}

function tripletItemsOf(kind: ObservationKind, columns: readonly ObservationColumn[]): TripletItems | null {
  if (kind !== 'metadata-packet') return null;
  const at = (property: string): number => 1 + columns.findIndex((c) => c.property === property);
  return { items: at('items'), keyName: at('keyName'), triplet: columns.length + 1 };
}

/** The items of the row's packet, kept as its triplet (the row's items column is NULL). */
function itemsOfTripletIn(row: readonly SqlValue[], derived: TripletItems): ItemsOfTriplet {
  return new ItemsOfTriplet(row[derived.triplet] as Uint8Array | null, row[derived.keyName] as string, row[0] as number);
}

/** What a replayed packet's items are decoded from, by packet. */
const TRIPLETS_OF_PACKETS = new WeakMap<object, ItemsOfTriplet>();

/** Makes `items` a data property holding `items`. */
function keepItems(observation: object, items: unknown): void {
  Object.defineProperty(observation, 'items', { value: items, enumerable: true, configurable: true, writable: true });
  TRIPLETS_OF_PACKETS.delete(observation);
}

/** The replayed packet whose items are read: the object itself, or one its prototype chain leads to. */
function packetHolding(object: object): object | null {
  let at: object | null = object;
  while (at !== null && !TRIPLETS_OF_PACKETS.has(at)) at = Object.getPrototypeOf(at) as object | null;
  return at;
}

/**
 * The accessor of every replayed packet's `items` until they are read: one getter and one setter for all the
 * packets, so that they keep one hidden class (an accessor made per packet gave each packet its own, which slowed
 * every check reading a packet's columns); what to decode is found by packet.
 */
const ITEMS_OF_TRIPLET: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: object) {
    const packet = packetHolding(this);
    const of = packet === null ? undefined : TRIPLETS_OF_PACKETS.get(packet);
    if (packet === null || of === undefined) return undefined;
    const items = of.decode();
    keepItems(packet, items);
    return items;
  },
  set(this: object, items: unknown) {
    keepItems(this, items);
  },
};

/**
 * A replayed packet's `items`, decoded from its triplet when first read (then kept): most checks
 * that take metadata packets read only their columns (time stamp, checksum, version), and decoding
 * every packet's items again was a tenth of a `process` over a stored run.
 */
function defineItemsOfTriplet(observation: Record<string, unknown>, row: readonly SqlValue[], derived: TripletItems): void {
  TRIPLETS_OF_PACKETS.set(observation, itemsOfTripletIn(row, derived));
  Object.defineProperty(observation, 'items', ITEMS_OF_TRIPLET);
}

function createCodec<K extends ObservationKind>(layout: ObservationTable<K>): ObservationRowCodec<K> {
  const { kind, table, columns } = layout;
  const count = columns.length;
  const names = ['seq', ...columns.map((c) => c.column)].map(quoted).join(', ');
  const valuesRow = `(?, ${columns.map(placeholder).join(', ')})`;
  const derived = tripletItemsOf(kind, columns);
  /** The row (a copy) with the items of a packet kept as its triplet in their column, as `kept` makes them of it. */
  const withItemsOf = (row: readonly SqlValue[], kept: (items: ItemsOfTriplet) => unknown): readonly SqlValue[] => {
    if (derived === null || row[derived.items] !== null) return row;
    const copy = row.slice();
    copy[derived.items] = kept(itemsOfTripletIn(row, derived)) as SqlValue;
    return copy;
  };
  const cells = columns.map(blockCellOf);
  const properties = columns.map((column) => column.property);
  const datasetFields = ['seq', ...columns.map(datasetFieldName)];
  const writeRow = storedRowWriter(columns, datasetFields);
  const decodeColumn = (column: ObservationColumn, value: SqlValue): unknown =>
    // Items decoded from the triplet are already values, not JSON text.
    column.type === 'json' && value !== null && typeof value !== 'string' ? value : decodeValue(column, value);
  return {
    kind,
    table,
    columns,
    insertSql: multiRowInsertSql(quoted(table), names, valuesRow, 1),
    insertRowsSql: (rows) => multiRowInsertSql(quoted(table), names, valuesRow, rows),
    selectSql: `SELECT ${names}${derived === null ? '' : `, ${TRIPLET_OF_PACKET_SQL}`} FROM ${quoted(table)}`,
    columnsSql: `SELECT ${names} FROM ${quoted(table)}`,
    tripletColumn: derived === null ? -1 : derived.triplet,
    datasetFields,
    encode(observation, seq, row, itemsFromTriplet = false, at = 0) {
      const source = observation as unknown as Record<string, unknown>;
      row[at] = seq;
      const skipped = itemsFromTriplet && derived !== null ? derived.items : -1;
      for (let i = 0; i < count; i++) row[at + i + 1] = i + 1 === skipped ? null : encodeValue(columns[i], source[columns[i].property]);
    },
    encodeIntoBlock(observation, seq, block, itemsFromTriplet = false) {
      const source = observation as unknown as Record<string, unknown>;
      block.setNumber(0, seq);
      const skipped = itemsFromTriplet && derived !== null ? derived.items : -1;
      for (let i = 0; i < count; i++) {
        const c = i + 1;
        const value = source[properties[i]];
        // NULL as encode() makes it: the items of a packet kept as its triplet, an absent optional property.
        const isNull = c === skipped || (value === undefined && columns[i].optional);
        switch (cells[i]) {
          case BlockCell.Number:
            block.setNumber(c, isNull ? null : (value as number | null));
            break;
          case BlockCell.Boolean:
            block.setNumber(c, isNull ? null : value ? 1 : 0);
            break;
          case BlockCell.Text:
            block.setText(c, isNull ? null : (value as string | null));
            break;
          case BlockCell.Json:
            block.setText(c, isNull || (value === null && columns[i].nullable) ? null : encodeJsonValue(value));
            break;
          default:
            block.setBytes(c, isNull ? null : (value as Uint8Array | null));
        }
      }
      block.endRow();
    },
    decodeObservation(row) {
      const observation: Record<string, unknown> = { kind };
      for (let i = 0; i < count; i++) {
        const column = columns[i];
        const value = row[i + 1];
        if (derived !== null && i + 1 === derived.items && value === null) defineItemsOfTriplet(observation, row, derived);
        else if (!isAbsent(column, value)) observation[column.property] = decodeColumn(column, value);
      }
      return observation as unknown as ObservationOf<K>;
    },
    decodeDatasetRow(stored) {
      const row = withItemsOf(stored, (items) => items.decode());
      const out: DatasetRow = { seq: row[0] };
      for (let i = 0; i < count; i++) {
        const column = columns[i];
        const value = row[i + 1];
        if (column.type === 'blob') out[datasetFieldName(column)] = value === null ? null : bytesToHex(value as Uint8Array);
        else out[column.property] = decodeColumn(column, value);
      }
      return out;
    },
    // Kept as the triplet: a writer of text writes ST 0601 items from its bytes (klv-items-text.ts).
    writeDatasetRow: (stored, out) => writeRow(withItemsOf(stored, (items) => items), out),
  };
}

/** The codec of every kind, in OBSERVATION_KINDS order (index = the kind's dispatch index). */
export const OBSERVATION_ROW_CODECS: readonly ObservationRowCodec[] = OBSERVATION_TABLE_LIST.map((layout) => createCodec(layout));

/** The codec of a kind. */
export function rowCodecOf<K extends ObservationKind>(kind: K): ObservationRowCodec<K> {
  return OBSERVATION_ROW_CODECS.find((codec) => codec.kind === kind) as unknown as ObservationRowCodec<K>;
}
