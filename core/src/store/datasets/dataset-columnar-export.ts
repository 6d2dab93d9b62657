/**
 * A raw dataset as a columnar file, made while it is sent: an Arrow IPC
 * stream (Arrow columnar format, "IPC Streaming Format": the schema
 * message, then one record batch message per batch, then the end-of-stream
 * marker) written with `apache-arrow`, or a Parquet file written by
 * `parquet-wasm` (the Rust `parquet` crate compiled to WebAssembly) from the
 * same record batches, a row group of up to 131 072 rows at a time (16 384
 * of the wide klv/metadata-packets). Memory holds a batch or a row group,
 * whatever the length of the dataset.
 *
 * Parquet writer chosen by measurement (2 M PES-like rows: int64s, a
 * float64, a nullable int64, a bool): parquet-wasm 2.2 to 3.3 M rows/s
 * (SNAPPY, dictionaries off but for text columns), hyparquet-writer 0.64 to
 * 0.75 M rows/s (pure JavaScript, a BigInt per int64 value); both stream
 * row group by row group. Dictionaries on every column halved parquet-wasm's rate.
 */
import { RecordBatchStreamWriter, type RecordBatch } from 'apache-arrow';
import type { Database } from 'sql.js';
import { DatasetError } from './dataset-error.js';
import type { DatasetParts } from './dataset-parts.js';
import { countDatasetRows, datasetPartsOf, planDatasetQuery, type DatasetQueryOptions } from './dataset-query.js';
import { datasetArrowLayout } from './dataset-arrow-layout.js';
import { arrowSchemaOf, datasetRecordBatches, DEFAULT_BATCH_ROWS } from './dataset-record-batches.js';
import type { RawDatasetDefinition } from './raw-datasets.js';

export const COLUMNAR_FORMATS = ['arrow', 'parquet'] as const;
export type ColumnarFormat = (typeof COLUMNAR_FORMATS)[number];

/** The media types: Arrow's registered stream type (IANA, 2021) and Parquet's (IANA `application/vnd.apache.parquet`, 2023). */
export const COLUMNAR_MEDIA_TYPES: Readonly<Record<ColumnarFormat, string>> = {
  arrow: 'application/vnd.apache.arrow.stream',
  parquet: 'application/vnd.apache.parquet',
};

/** Rows per Parquet row group at most. */
export const PARQUET_ROW_GROUP_ROWS = 131_072;
/** Of `klv/metadata-packets` (some 160 columns): the writer holds a row group until it is written, so fewer rows. */
export const WIDE_PARQUET_ROW_GROUP_ROWS = DEFAULT_BATCH_ROWS / 4;

export interface ColumnarExportOptions extends DatasetQueryOptions {
  /** Rows per record batch (default 65 536). */
  batchRows?: number;
}

/** A columnar export ready to run: its total is known before the first byte; iterating it makes the file. */
export interface ColumnarExport extends AsyncIterable<Uint8Array> {
  readonly dataset: RawDatasetDefinition;
  readonly format: ColumnarFormat;
  readonly mediaType: string;
  readonly total: number;
  /** Rows written so far. */
  readonly rows: number;
  /** After the bytes were all read: the cursor of the rows that follow (with a limit), or null. */
  readonly nextCursor: string | null;
}

/** An Arrow stream writer that hands over each message's bytes as written, instead of queueing them for an async reader. */
class ArrowMessageWriter extends RecordBatchStreamWriter {
  readonly #chunks: Uint8Array[] = [];

  protected override _write(chunk: Uint8Array | ArrayBufferView): this {
    if (this._started && chunk.byteLength > 0) {
      this.#chunks.push(chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      this._position += chunk.byteLength;
    }
    return this;
  }

  /**
   * The bytes written since the last take: a column's buffer of at least COPY_BELOW bytes as it is (a copy of a
   * klv/fields batch's texts cost a tenth of the export), the small pieces between (message headers, padding, small
   * columns) copied together into one chunk.
   */
  takeChunks(): Uint8Array[] {
    const taken: Uint8Array[] = [];
    const small: Uint8Array[] = [];
    const flush = (): void => {
      if (small.length > 0) taken.push(small.length === 1 ? small[0] : Buffer.concat(small));
      small.length = 0;
    };
    for (const chunk of this.#chunks) {
      if (chunk.byteLength < COPY_BELOW) {
        small.push(chunk);
      } else {
        flush();
        taken.push(chunk);
      }
    }
    flush();
    this.#chunks.length = 0;
    return taken;
  }
}

/**
 * Pieces of an Arrow message below this size are copied into one chunk; larger ones are handed over as they are. Below
 * a column of a klv/metadata-packets batch (4 096 rows: 32 KB a number column): copying those cost a fifth of that
 * dataset's export.
 */
const COPY_BELOW = 4 * 1024;

function columnarFormat(format: string): ColumnarFormat {
  if (!(COLUMNAR_FORMATS as readonly string[]).includes(format)) {
    throw new DatasetError('ERR_DATASET_INVALID_PARAMETER', `format must be one of ${COLUMNAR_FORMATS.join(', ')}, got '${format}'`, { parameter: 'format', value: format, allowed: COLUMNAR_FORMATS });
  }
  return format as ColumnarFormat;
}

function batchSize(value: number | undefined): number {
  if (value === undefined) return DEFAULT_BATCH_ROWS;
  if (!Number.isSafeInteger(value) || value < 1) throw new DatasetError('ERR_DATASET_INVALID_PARAMETER', `batchRows must be a whole number of at least 1, got ${value}`, { parameter: 'batchRows', value });
  return value;
}

/** The Arrow IPC stream of the batches, message group by message group (the schema with the first batch, then a batch at a time). */
function* arrowStream(batches: Iterable<RecordBatch>, writer: ArrowMessageWriter): Generator<Uint8Array, void, undefined> {
  for (const batch of batches) {
    writer.write(batch);
    yield* writer.takeChunks();
  }
  // Writes the schema of an empty dataset, then the end-of-stream marker.
  writer.finish();
  yield* writer.takeChunks();
}

/**
 * Each record batch as an Arrow IPC stream of its own (the schema, the batch, the end-of-stream marker), for
 * parquet-wasm to read, copied into one buffer kept from batch to batch: its bytes are copied into WebAssembly's memory
 * before the next batch is made, and a new buffer for each batch (apache-arrow's toUint8Array) cost more in fresh
 * memory than the copy itself.
 */
class BatchIpcStreams {
  #buffer = new Uint8Array(0);

  /** The batch's stream, valid until the next call. */
  of(batch: RecordBatch): Uint8Array {
    const writer = new ArrowMessageWriter();
    writer.reset(undefined, batch.schema);
    writer.write(batch);
    writer.finish();
    const chunks = writer.takeChunks();
    let length = 0;
    for (const chunk of chunks) length += chunk.byteLength;
    if (length > this.#buffer.length) this.#buffer = new Uint8Array(Math.max(length, Math.ceil(1.25 * this.#buffer.length)));
    let at = 0;
    for (const chunk of chunks) {
      this.#buffer.set(chunk, at);
      at += chunk.byteLength;
    }
    return this.#buffer.subarray(0, length);
  }
}

/** The record batches as a Parquet file, through parquet-wasm (loaded on first use: a 5 MB WebAssembly module). */
async function* parquetFile(batches: Iterator<RecordBatch, unknown, undefined>, layout: ReturnType<typeof datasetArrowLayout>): AsyncGenerator<Uint8Array, void, undefined> {
  const wasm = await import('parquet-wasm');
  // SNAPPY: no more CPU than none (fewer bytes to copy out of WebAssembly), ZSTD 15 to 50 % more for half the bytes (docs/store.md).
  let properties = new wasm.WriterPropertiesBuilder()
    .setCompression(wasm.Compression.SNAPPY)
    .setDictionaryEnabled(false)
    .setStatisticsEnabled(wasm.EnabledStatistics.Chunk)
    .setMaxRowGroupSize(layout.st0601.length > 0 ? WIDE_PARQUET_ROW_GROUP_ROWS : PARQUET_ROW_GROUP_ROWS)
    .setCreatedBy('klvscope');
  // Texts repeat (names, units, keys): a dictionary makes them a few bytes a row.
  for (const field of [...layout.stored, ...layout.st0601]) if (field.kind === 'utf8') properties = properties.setColumnDictionaryEnabled(field.name, true);
  const streams = new BatchIpcStreams();
  const input = new ReadableStream<unknown>({
    pull(controller) {
      const step = batches.next();
      if (step.done === true) {
        controller.close();
        return;
      }
      // Each batch crosses into WebAssembly as an Arrow IPC stream of its own (arrow-rs reads it).
      const table = wasm.Table.fromIPCStream(streams.of(step.value));
      try {
        controller.enqueue(table.recordBatch(0));
      } finally {
        table.free();
      }
    },
    cancel() {
      batches.return?.(undefined);
    },
  });
  const output = await wasm.transformParquetStream(input, properties.build());
  for await (const chunk of output as unknown as AsyncIterable<Uint8Array>) yield chunk;
}

/**
 * Checks the request and counts its rows (ERR_DATASET_UNKNOWN or
 * ERR_DATASET_INVALID_PARAMETER here, before any byte), and returns the
 * export to iterate. Without `limit` every row is exported.
 */
export function exportDatasetColumnar(source: Database | DatasetParts, name: string, format: string, options: ColumnarExportOptions = {}): ColumnarExport {
  const checkedFormat = columnarFormat(format);
  const batchRows = batchSize(options.batchRows);
  const query = planDatasetQuery(name, options, { defaultLimit: null, maxLimit: Number.MAX_SAFE_INTEGER });
  const parts = datasetPartsOf(source);
  const total = countDatasetRows(parts, query);
  const layout = datasetArrowLayout(query.dataset);
  let rows = 0;
  let nextCursor: string | null = null;
  function* counted(): Generator<RecordBatch, void, undefined> {
    const batches = datasetRecordBatches(parts, query, batchRows, Math.max(0, Math.min(total - query.offset, query.limit ?? total)));
    try {
      for (let step = batches.next(); ; step = batches.next()) {
        if (step.done === true) {
          nextCursor = step.value;
          return;
        }
        rows += step.value.numRows;
        yield step.value;
      }
    } finally {
      // A consumer that stops early (a client gone) must not leave a statement open.
      batches.return(null);
    }
  }
  async function* bytes(): AsyncGenerator<Uint8Array, void, undefined> {
    rows = 0;
    if (checkedFormat === 'arrow') {
      const writer = new ArrowMessageWriter();
      // An empty dataset still names its columns: the schema is written before the first batch, or at the end.
      writer.reset(undefined, arrowSchemaOf(layout));
      yield* arrowStream(counted(), writer);
    } else {
      yield* parquetFile(counted(), layout);
    }
  }
  return {
    dataset: query.dataset,
    format: checkedFormat,
    mediaType: COLUMNAR_MEDIA_TYPES[checkedFormat],
    total,
    get rows() {
      return rows;
    },
    get nextCursor() {
      return nextCursor;
    },
    [Symbol.asyncIterator]: bytes,
  };
}
