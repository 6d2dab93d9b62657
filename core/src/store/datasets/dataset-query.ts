/**
 * Reading a raw dataset: its parameters checked into one query (filters,
 * keyset or offset paging), the total of the rows the filters match (from
 * the parts' summaries, dataset-parts.ts), and the rows themselves, stepped
 * from a statement in `seq` order, part after part.
 *
 * Empty strings count as absent (`?types=&cursor=` is a first, unfiltered
 * page). A filter the dataset does not take is an error, not ignored: a
 * client asking `klv/fields?types=...` would otherwise get rows it did not
 * ask for.
 */
import type { Database, SqlValue } from 'sql.js';
import type { PsiTableType } from '../../kernel/observations.js';
import { TS_ERROR_TYPES } from '../../ts/ts-error-catalog.js';
import { decodeDatasetCursor, encodeDatasetCursor } from './dataset-cursor.js';
import { DatasetError } from './dataset-error.js';
import { FILTER_COLUMNS, partRows, singleDatabaseParts, type DatasetParts } from './dataset-parts.js';
import { fieldRowOfItem, klvFieldRows, type ItemField } from './klv-field-derivation.js';
import { packedRows, PACKED_KINDS } from './observation-block-codec.js';
import { rowCodecOf, type DatasetRow, type ObservationRowCodec } from './observation-row-codec.js';
import { rawDataset, type DatasetFilter, type RawDatasetDefinition } from './raw-datasets.js';

export const DEFAULT_DATASET_LIMIT = 1000;
export const MAX_DATASET_LIMIT = 100_000;

/** The table types `tableType` accepts (inspection-service.md, common parameters). */
export const TABLE_TYPE_FILTER_VALUES: readonly PsiTableType[] = ['PAT', 'PMT'];
/** The error types `types` accepts: every type the TS parser reports. */
export { TS_ERROR_TYPES };

export interface DatasetQueryOptions {
  /** Rows per page: 1 to MAX_DATASET_LIMIT, default DEFAULT_DATASET_LIMIT. Numbers or decimal text (query strings). */
  limit?: number | string;
  /** Rows to skip; not together with `cursor`. */
  offset?: number | string;
  /** The `nextCursor` of the previous page: the rows after it. */
  cursor?: string;
  /** `mpegts/table-positions` only: `PAT` or `PMT`. */
  tableType?: string;
  /** `mpegts/errors` only: error types, comma-separated and/or as a list. */
  types?: string | readonly string[];
  /**
   * The dataset's rows when already known (a completed ingest run's
   * `counts[kind]`): the total of a query without filters, so a page need
   * not count the table again. Not a client's to give.
   */
  unfilteredTotal?: number;
}

export interface DatasetPage {
  /** Rows matching the filters, in the whole dataset (not only this page). */
  total: number;
  rows: DatasetRow[];
  /** Cursor of the next page, or null when this page ends the dataset. */
  nextCursor: string | null;
}

/** A checked dataset request. */
export interface DatasetQuery {
  readonly dataset: RawDatasetDefinition;
  readonly codec: ObservationRowCodec;
  /** The values of the kind's filter column (FILTER_COLUMNS) that rows must hold, or null for every row. */
  readonly filterValues: readonly string[] | null;
  /** Rows with a seq above this only (from the cursor), or null. */
  readonly afterSeq: number | null;
  readonly offset: number;
  /** Rows to give at most; null for all. */
  readonly limit: number | null;
  /** The total the caller knew, kept only when no filter applies; null to count. */
  readonly knownTotal: number | null;
}

export interface DatasetPaging {
  /** The limit when none is given; null for all rows. */
  defaultLimit: number | null;
  maxLimit: number;
}

function invalid(parameter: string, value: unknown, message: string, extra: Record<string, unknown> = {}): DatasetError {
  return new DatasetError('ERR_DATASET_INVALID_PARAMETER', message, { parameter, value, ...extra });
}

function given<T>(value: T | undefined): value is T {
  return value !== undefined && value !== '';
}

function wholeNumber(parameter: string, value: number | string, min: number, max: number): number {
  const number = typeof value === 'number' ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw invalid(parameter, value, `${parameter} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return number;
}

function assertFilterApplies(dataset: RawDatasetDefinition, filter: DatasetFilter, value: unknown): void {
  if (!dataset.filters.includes(filter)) {
    throw invalid(filter, value, `dataset ${dataset.name} takes no ${filter} filter${dataset.filters.length > 0 ? ` (it takes ${dataset.filters.join(', ')})` : ''}`);
  }
}

function tableTypeFilter(tableType: string): string {
  if (!(TABLE_TYPE_FILTER_VALUES as readonly string[]).includes(tableType)) {
    throw invalid('tableType', tableType, `tableType must be ${TABLE_TYPE_FILTER_VALUES.join(' or ')}, got '${tableType}'`, { allowed: TABLE_TYPE_FILTER_VALUES });
  }
  return tableType;
}

/** A query parameter given comma-separated, repeated or both, as a list: trimmed, without empty entries or repeats, in order. */
export function listParameter(value: string | readonly string[]): string[] {
  const list = (typeof value === 'string' ? [value] : value).flatMap((entry) => entry.split(',')).map((entry) => entry.trim());
  return [...new Set(list.filter((entry) => entry !== ''))];
}

function errorTypesFilter(types: string | readonly string[]): string[] {
  const chosen = listParameter(types);
  for (const type of chosen) {
    if (!(TS_ERROR_TYPES as readonly string[]).includes(type)) {
      throw invalid('types', types, `unknown error type '${type}' in types (known: ${TS_ERROR_TYPES.join(', ')})`, { unknown: type, allowed: TS_ERROR_TYPES });
    }
  }
  return chosen;
}

/** Checks a request for dataset `name`; ERR_DATASET_UNKNOWN or ERR_DATASET_INVALID_PARAMETER when it cannot be served. */
export function planDatasetQuery(name: string, options: DatasetQueryOptions, paging: DatasetPaging): DatasetQuery {
  const dataset = rawDataset(name);
  const codec: ObservationRowCodec = rowCodecOf(dataset.kind);
  // A dataset takes one filter at most (assertFilterApplies), on its kind's filter column.
  let filterValues: string[] | null = null;
  if (given(options.tableType)) {
    assertFilterApplies(dataset, 'tableType', options.tableType);
    filterValues = [tableTypeFilter(options.tableType)];
  }
  if (given(options.types)) {
    assertFilterApplies(dataset, 'types', options.types);
    const types = errorTypesFilter(options.types);
    if (types.length > 0) filterValues = types;
  }
  if (given(options.offset) && given(options.cursor)) {
    throw invalid('cursor', options.cursor, 'give either offset or cursor, not both');
  }
  const limit = given(options.limit) ? wholeNumber('limit', options.limit, 1, paging.maxLimit) : paging.defaultLimit;
  return {
    dataset,
    codec,
    filterValues,
    knownTotal: filterValues === null ? (options.unfilteredTotal ?? null) : null,
    afterSeq: given(options.cursor) ? decodeDatasetCursor(options.cursor) : null,
    offset: given(options.offset) ? wholeNumber('offset', options.offset, 0, Number.MAX_SAFE_INTEGER) : 0,
    limit,
  };
}

/** A run's parts, or one database as the only part. */
export function datasetPartsOf(source: Database | DatasetParts): DatasetParts {
  return 'parts' in source ? source : singleDatabaseParts(source);
}

/** How many rows of the dataset the query's filters match (paging aside), from the parts' summaries. */
export function countDatasetRows(source: DatasetParts, query: DatasetQuery): number {
  if (query.knownTotal !== null) return query.knownTotal;
  let total = 0;
  for (const part of source.parts) total += partRows(part, query.dataset.kind, query.filterValues);
  return total;
}

/**
 * The query's rows in `seq` order, one statement step at a time, from the
 * first part that holds any (whole parts are skipped by their counts for an
 * offset, by their last seq for a cursor) on into the next. Its return value
 * is the cursor of the next page: null when no row follows.
 */
export function* datasetRows<T = DatasetRow>(source: DatasetParts, query: DatasetQuery, maker: DatasetRowMaker<T> = ROW_OBJECTS as DatasetRowMaker<unknown> as DatasetRowMaker<T>): Generator<T, string | null, undefined> {
  const { kind } = query.dataset;
  const column = FILTER_COLUMNS[kind];
  const where: string[] = [];
  if (query.filterValues !== null && column !== undefined) where.push(`"${column}" IN (${query.filterValues.map(() => '?').join(', ')})`);
  if (query.afterSeq !== null) where.push('seq > ?');
  const sql = `${query.codec.selectSql}${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`} ORDER BY seq LIMIT ? OFFSET ?`;
  const { parts } = source;
  const rowsIn = parts.map((part) => partRows(part, kind, query.filterValues));
  let skip = query.offset;
  let delivered = 0;
  let lastSeq = 0;
  for (let index = 0; index < parts.length; index++) {
    if (rowsIn[index] === 0) continue;
    if (query.afterSeq !== null && parts[index].lastSeq <= query.afterSeq) continue;
    // Offset and cursor never come together (planDatasetQuery): an offset counts from the first row.
    if (skip >= rowsIn[index]) {
      skip -= rowsIn[index];
      continue;
    }
    // A later part with a matching row: the page ended exactly at the end of the one before.
    if (delivered === query.limit) return encodeDatasetCursor(lastSeq);
    const params: SqlValue[] = query.filterValues === null ? [] : [...query.filterValues];
    if (query.afterSeq !== null) params.push(query.afterSeq);
    // One row beyond the limit tells whether a next page exists; -1 is SQLite's "no limit".
    params.push(query.limit === null ? -1 : query.limit - delivered + 1, skip);
    const part = source.open(index);
    const packed = PACKED_KINDS.has(kind);
    // Packed kinds (observation-block-codec.ts) skip their offset themselves, whole blocks at a time; a metadata
    // packet's triplet is a view of its KLV packet block (its items are read from it while the row is made or the page kept).
    const rows = packed ? packedRows(part.db, query.codec, query.afterSeq ?? 0, skip, true, { tripletViews: true }) : kind === 'klv-field' ? klvFieldRows(part.db, query.afterSeq) : rowsOf(part.db, sql, params);
    // klv-field rows come partly from the packets' items (klv-field-derivation.ts): their offset is skipped here.
    let skipHere = kind === 'klv-field' ? skip : 0;
    skip = 0;
    try {
      for (const row of rows) {
        if (skipHere > 0) {
          skipHere--;
          continue;
        }
        if (delivered === query.limit) return encodeDatasetCursor(lastSeq);
        // Made only now: one row beyond the limit is read to know whether a next page exists, never made.
        delivered++;
        let made: T;
        if (Array.isArray(row)) {
          lastSeq = row[0] as number;
          made = maker.stored(query.codec, row);
        } else {
          lastSeq = row.seq;
          made = maker.made(row);
        }
        if (maker.pause === undefined || maker.pause()) yield made;
      }
    } finally {
      part.release();
    }
  }
  return null;
}

/** How a dataset's rows are made: from a stored row, or from a field made from its packet's item (only while its step lasts). */
export interface DatasetRowMaker<T> {
  stored(codec: ObservationRowCodec, row: readonly SqlValue[]): T;
  made(field: ItemField): T;
  /** Whether the rows' reader yields after the row just made (without it, after every row): a writer of text needs its step only once a chunk is full. */
  pause?(): boolean;
}

/** Dataset rows as objects (readDataset's pages). */
const ROW_OBJECTS: DatasetRowMaker<DatasetRow> = { stored: (codec, row) => codec.decodeDatasetRow(row), made: fieldRowOfItem };

/** A part's stored rows of the query's dataset, stepped from its statement (`params` end with the limit and offset). */
function* rowsOf(db: Database, sql: string, params: SqlValue[]): Generator<SqlValue[], void, undefined> {
  const statement = db.prepare(sql, params);
  try {
    while (statement.step()) yield statement.get();
  } finally {
    statement.free();
  }
}

/** One page of a raw dataset (at most MAX_DATASET_LIMIT rows, held in memory; see dataset-export.ts to stream). */
export function readDataset(source: Database | DatasetParts, name: string, options: DatasetQueryOptions = {}): DatasetPage {
  const parts = datasetPartsOf(source);
  const query = planDatasetQuery(name, options, { defaultLimit: DEFAULT_DATASET_LIMIT, maxLimit: MAX_DATASET_LIMIT });
  const total = countDatasetRows(parts, query);
  const rows: DatasetRow[] = [];
  const iterator = datasetRows(parts, query);
  for (let step = iterator.next(); ; step = iterator.next()) {
    if (step.done === true) return { total, rows, nextCursor: step.value };
    rows.push(step.value);
  }
}
