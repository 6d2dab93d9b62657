/**
 * The typed columns of each raw dataset in the columnar exports (Arrow IPC
 * and Parquet): the dataset's fields in order, each as the type its stored
 * column holds (integers as int64, `t` as float64 seconds, booleans as
 * bool, texts and nested values as UTF-8 — nested values as the JSON text
 * NDJSON gives them —, the KLV triplet as binary `raw`), the metadata
 * packet's time stamp as a UTC timestamp in µs, and in
 * `klv/metadata-packets` one column per MISB ST 0601 item after the
 * packet's own columns (ST 0601.19 Table 1: numbers as float64 or int64,
 * time stamps as timestamps, texts as text, packs and sets as JSON text).
 * There `items` keeps what has no column of its own (the items of other
 * standards; of an ST 0601 packet an unknown tag, a repeat of an item that
 * may not repeat, an item that could not be decoded), as JSON, or null.
 */
import type { KlvItem } from '../../kernel/observations.js';
import { ST0601_ITEMS, type St0601ItemSpec } from '../../klv/st0601-items.js';
import type { ArrowColumnKind } from './arrow-column-builders.js';
import type { ObservationColumn } from './observation-columns.js';
import type { RawDatasetDefinition } from './raw-datasets.js';
import { rowCodecOf } from './observation-row-codec.js';

export interface ArrowFieldLayout {
  readonly name: string;
  readonly kind: ArrowColumnKind;
  readonly nullable: boolean;
}

/** An ST 0601 item's column in `klv/metadata-packets`. */
export interface St0601ItemColumn extends ArrowFieldLayout {
  readonly tag: number;
  readonly spec: St0601ItemSpec;
}

export interface DatasetArrowLayout {
  /** The stored columns' fields (`seq` first), in the stored row's order. */
  readonly stored: readonly ArrowFieldLayout[];
  /** `klv/metadata-packets` only: the ST 0601 item columns, after the stored ones. */
  readonly st0601: readonly St0601ItemColumn[];
}

const INTEGER_VALUE_TYPES = new Set(['uint8', 'uint16', 'uint32', 'int8', 'int16', 'int32', 'uint (variable)', 'int (variable)']);

/** The column kind of an ST 0601 item, from its value type and resolution (ST 0601 section 8). */
function st0601Kind(spec: St0601ItemSpec): ArrowColumnKind {
  if (spec.mayRepeat) return 'utf8';
  if (spec.valueType === 'uint64' && spec.units === 'µs') return 'timestamp-us';
  const whole = spec.resolution !== null && Number.isInteger(spec.resolution);
  if (INTEGER_VALUE_TYPES.has(spec.valueType) && (spec.resolution === null || whole) && spec.range === null) return 'int64';
  if (spec.resolution !== null || spec.range !== null) return whole && spec.valueType !== 'IMAPB' ? 'int64' : 'float64';
  return 'utf8';
}

/** "Target Error Estimate - CE90" -> "targetErrorEstimateCe90". */
function camelCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  return words.map((word, index) => (index === 0 ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1).toLowerCase())).join('');
}

function st0601Columns(taken: ReadonlySet<string>): St0601ItemColumn[] {
  const names = new Set(taken);
  return ST0601_ITEMS.map((spec) => {
    let name = camelCase(spec.name);
    // A name the packet's columns or an earlier item already have: the tag tells them apart.
    if (names.has(name)) name = `${name}Tag${spec.tag}`;
    names.add(name);
    return { tag: spec.tag, spec, name, kind: st0601Kind(spec), nullable: true };
  });
}

function storedKind(column: ObservationColumn): ArrowColumnKind {
  if (column.property === 'timestampMicros') return 'timestamp-us';
  switch (column.type) {
    case 'integer':
      return 'int64';
    case 'real':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'blob':
      return 'binary';
    default:
      return 'utf8';
  }
}

const layouts = new Map<string, DatasetArrowLayout>();

/** The columns of a dataset in the columnar exports. */
export function datasetArrowLayout(dataset: RawDatasetDefinition): DatasetArrowLayout {
  let layout = layouts.get(dataset.name);
  if (layout === undefined) {
    const { columns } = rowCodecOf(dataset.kind);
    const stored: ArrowFieldLayout[] = [
      { name: 'seq', kind: 'int64', nullable: false },
      ...columns.map((column) => ({
        name: column.property,
        kind: storedKind(column),
        // Items left to their own columns make `items` null for most ST 0601 packets.
        nullable: column.nullable || column.optional || column.derivable,
      })),
    ];
    const st0601 = dataset.kind === 'metadata-packet' ? st0601Columns(new Set(stored.map((field) => field.name))) : [];
    layout = { stored, st0601 };
    layouts.set(dataset.name, layout);
  }
  return layout;
}

/** The ST 0601 item columns by tag. */
export function st0601ColumnIndex(columns: readonly St0601ItemColumn[]): Map<number, number> {
  return new Map(columns.map((column, index) => [column.tag, index]));
}

/** An item's value as its column takes it: a number for number columns; in a text column a text as it is, anything else as JSON; null when it has none. */
export function st0601ColumnValue(column: St0601ItemColumn, value: unknown): number | string | null {
  if (value === null || value === undefined) return null;
  if (column.kind === 'utf8') return typeof value === 'string' ? value : JSON.stringify(value);
  return typeof value === 'number' ? value : null;
}

/** Whether an item has a column of its own in a packet of this key (the others stay in `items`). */
export function itemHasColumn(item: KlvItem, index: ReadonlyMap<number, number>): boolean {
  return item.error === undefined && index.has(item.tag);
}
