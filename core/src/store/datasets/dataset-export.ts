/**
 * A raw dataset as text for download, in JSON, NDJSON or CSV, made while it
 * is sent: rows are stepped from a statement and leave as UTF-8 bytes in
 * chunks of about `chunkBytes`, so an export of millions of rows never
 * holds them all. The chunks are bytes, not strings: what is sent is
 * bytes, and decoding 400 MB of text into strings only to encode it again
 * took a sixth of an export's time.
 *
 *   json    {"total":N,"rows":[...],"nextCursor":...}   (the shape of readDataset)
 *   ndjson  one row per line, LF
 *   csv     a header row of the field names, then one record per row (csv-format.ts)
 *
 * Unlike readDataset, an export without `limit` gives every row (after
 * `offset` or `cursor`); a given limit may exceed MAX_DATASET_LIMIT.
 * Non-finite numbers in nested values (none of our decoders makes them)
 * become null in JSON, as JSON.stringify has it.
 */
import type { Database } from 'sql.js';
import { csvLine } from './csv-format.js';
import { DatasetError } from './dataset-error.js';
import type { DatasetParts } from './dataset-parts.js';
import { countDatasetRows, datasetPartsOf, datasetRows, planDatasetQuery, type DatasetQuery, type DatasetQueryOptions, type DatasetRowMaker } from './dataset-query.js';
import { itemFieldRowWriter } from './item-field-row-text.js';
import { JsonTextBuffer } from './json-row-text.js';
import { fieldRowOfItem } from './klv-field-derivation.js';
import type { DatasetRow } from './observation-row-codec.js';
import type { RawDatasetDefinition } from './raw-datasets.js';

export const DATASET_FORMATS = ['json', 'ndjson', 'csv'] as const;
export type DatasetFormat = (typeof DATASET_FORMATS)[number];

/** The Content-Type of each format. */
export const DATASET_MEDIA_TYPES: Readonly<Record<DatasetFormat, string>> = {
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
};

export const DEFAULT_CHUNK_BYTES = 64 * 1024;
/** Bytes past chunkBytes a chunk's buffer holds (a metadata packet's row is about 3 KB). */
const ROW_ROOM = 16 * 1024;

export interface DatasetExportOptions extends DatasetQueryOptions {
  /** About how many bytes (UTF-8) a chunk holds before it is handed on; default 64 KiB. */
  chunkBytes?: number;
}

/** An export ready to run: its total is known before the first chunk (for a header); iterating it makes the text, UTF-8 encoded. */
export interface DatasetExport extends Iterable<Buffer> {
  readonly dataset: RawDatasetDefinition;
  readonly format: DatasetFormat;
  readonly mediaType: string;
  /** Rows matching the filters in the whole dataset. */
  readonly total: number;
  /** Rows made into text so far. */
  readonly rows: number;
  /** After the chunks were all read: the cursor of the rows that follow (with a limit), or null. */
  readonly nextCursor: string | null;
}

export interface DatasetExportSummary {
  total: number;
  /** Rows written. */
  rows: number;
  nextCursor: string | null;
}

function datasetFormat(format: string): DatasetFormat {
  if (!(DATASET_FORMATS as readonly string[]).includes(format)) {
    throw new DatasetError('ERR_DATASET_INVALID_PARAMETER', `format must be one of ${DATASET_FORMATS.join(', ')}, got '${format}'`, {
      parameter: 'format',
      value: format,
      allowed: DATASET_FORMATS,
    });
  }
  return format as DatasetFormat;
}

function chunkSize(value: number | undefined): number {
  if (value === undefined) return DEFAULT_CHUNK_BYTES;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new DatasetError('ERR_DATASET_INVALID_PARAMETER', `chunkBytes must be a whole number of at least 1, got ${value}`, { parameter: 'chunkBytes', value });
  }
  return value;
}

/** Rows written as text: JSON for json and ndjson (json-row-text.ts), a record for csv; each row with what goes around it. */
interface RowFormat {
  /** The text before the rows; it starts the rows again. */
  head(total: number): string;
  rows: DatasetRowMaker<void>;
  tail(nextCursor: string | null): string;
}

const LINE_FEED = 0x0a;
const COMMA = 0x2c;

function rowFormat(format: DatasetFormat, fields: readonly string[], out: JsonTextBuffer): RowFormat {
  if (format === 'csv') {
    const record = (row: DatasetRow): void => out.text(csvLine(fields.map((field) => row[field])));
    return { head: () => csvLine(fields), rows: { stored: (codec, row) => record(codec.decodeDatasetRow(row)), made: (field) => record(fieldRowOfItem(field)) }, tail: () => '' };
  }
  const writeItemField = itemFieldRowWriter(fields);
  if (format === 'ndjson') {
    const rows: DatasetRowMaker<void> = {
      stored: (codec, row) => {
        codec.writeDatasetRow(row, out);
        out.byte(LINE_FEED);
      },
      made: (field) => {
        writeItemField(field, out);
        out.byte(LINE_FEED);
      },
    };
    return { head: () => '', rows, tail: () => '' };
  }
  // JSON: a comma before every row but the first.
  let first = true;
  const separate = (): void => {
    if (first) first = false;
    else out.byte(COMMA);
  };
  const rows: DatasetRowMaker<void> = {
    stored: (codec, row) => {
      separate();
      codec.writeDatasetRow(row, out);
    },
    made: (field) => {
      separate();
      writeItemField(field, out);
    },
  };
  return {
    head: (total) => {
      first = true;
      return `{"total":${total},"rows":[`;
    },
    rows,
    tail: (nextCursor) => `],"nextCursor":${JSON.stringify(nextCursor)}}`,
  };
}

/**
 * Checks the request and counts its rows (ERR_DATASET_UNKNOWN or
 * ERR_DATASET_INVALID_PARAMETER here, before any text), and returns the
 * export to iterate.
 */
export function exportDataset(source: Database | DatasetParts, name: string, format: string, options: DatasetExportOptions = {}): DatasetExport {
  const checkedFormat = datasetFormat(format);
  const chunkBytes = chunkSize(options.chunkBytes);
  const query: DatasetQuery = planDatasetQuery(name, options, { defaultLimit: null, maxLimit: Number.MAX_SAFE_INTEGER });
  const parts = datasetPartsOf(source);
  const total = countDatasetRows(parts, query);
  // A chunk is handed over once past chunkBytes: room for the row that passes it (a longer one grows the buffer).
  const out = new JsonTextBuffer(chunkBytes + ROW_ROOM);
  const text = rowFormat(checkedFormat, query.dataset.fields, out);
  let nextCursor: string | null = null;
  let made = 0;
  function* chunks(): Generator<Buffer, void, undefined> {
    made = 0;
    out.clear();
    out.text(text.head(total));
    // Rows are written into `out` as they are read; the reader yields once a chunk is full.
    const rows = datasetRows(parts, query, {
      stored: (codec, row) => {
        text.rows.stored(codec, row);
        made++;
      },
      made: (field) => {
        text.rows.made(field);
        made++;
      },
      pause: () => out.length >= chunkBytes,
    });
    try {
      for (let step = rows.next(); ; step = rows.next()) {
        if (step.done === true) {
          nextCursor = step.value;
          break;
        }
        yield out.takeBytes();
      }
    } finally {
      // A consumer that stops early (a client gone) must not leave the statement open.
      rows.return(null);
    }
    out.text(text.tail(nextCursor));
    if (out.length > 0) yield out.takeBytes();
  }
  return {
    dataset: query.dataset,
    format: checkedFormat,
    mediaType: DATASET_MEDIA_TYPES[checkedFormat],
    total,
    get rows() {
      return made;
    },
    get nextCursor() {
      return nextCursor;
    },
    [Symbol.iterator]: chunks,
  };
}

/**
 * Writes a dataset export chunk by chunk, awaiting `write` each time (so a
 * slow client slows the reading, not the memory).
 */
export async function writeDataset(
  source: Database | DatasetParts,
  name: string,
  options: DatasetExportOptions,
  format: string,
  write: (chunk: Buffer) => void | Promise<void>,
): Promise<DatasetExportSummary> {
  const output = exportDataset(source, name, format, options);
  for (const chunk of output) await write(chunk);
  return { total: output.total, rows: output.rows, nextCursor: output.nextCursor };
}
