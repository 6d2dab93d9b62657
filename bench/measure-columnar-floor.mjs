// Child process of bench/run.mjs: the floors under a fresh process's columnar exports (issue 34).
// Arrow: for each dataset named on the command line as NAME=ROWS, with the columns its export
// has (datasetArrowLayout), it fills every column of ROWS rows with one JavaScript loop per
// column (a number or a bit per value, a text's offset per value: the texts' bytes are not
// written) and writes the batch as an Arrow IPC stream (apache-arrow), as the export does.
// Nothing is read from a store and nothing decoded, so no export that makes each value in
// JavaScript can be faster in a fresh process. Parquet: then the time to load parquet-wasm,
// which a fresh process's first Parquet export pays before its first row.
// Prints one JSON line: rows, bytes, inProcessMs (Arrow), parquetLoadMs.
import { Field, makeData, RecordBatch, RecordBatchStreamWriter, Schema, Struct, Binary, Bool, Float64, Int64, Timestamp, TimeUnit, Utf8 } from 'apache-arrow';
import { datasetArrowLayout, rawDataset } from '@klvscope/core/store';

const TEXT_BYTES = 8;

function column(kind, rows) {
  switch (kind) {
    case 'int64':
    case 'timestamp-us': {
      const values = new BigInt64Array(rows);
      const words = new Int32Array(values.buffer);
      for (let i = 0; i < rows; i++) words[2 * i] = i;
      return makeData({ type: kind === 'int64' ? new Int64() : new Timestamp(TimeUnit.MICROSECOND, 'UTC'), length: rows, data: values });
    }
    case 'float64': {
      const values = new Float64Array(rows);
      for (let i = 0; i < rows; i++) values[i] = i * 0.5;
      return makeData({ type: new Float64(), length: rows, data: values });
    }
    case 'bool': {
      const bits = new Uint8Array((rows + 7) >> 3);
      for (let i = 0; i < rows; i++) bits[i >> 3] |= (i & 1) << (i & 7);
      return makeData({ type: new Bool(), length: rows, data: bits });
    }
    default: {
      const offsets = new Int32Array(rows + 1);
      for (let i = 0; i <= rows; i++) offsets[i] = i * TEXT_BYTES;
      const data = new Uint8Array(rows * TEXT_BYTES).fill(0x61);
      return makeData({ type: kind === 'binary' ? new Binary() : new Utf8(), length: rows, valueOffsets: offsets, data });
    }
  }
}

const datasets = process.argv.slice(2).map((argument) => {
  const at = argument.lastIndexOf('=');
  return { layout: datasetArrowLayout(rawDataset(argument.slice(0, at))), rows: Number(argument.slice(at + 1)) };
});
let rows = 0;
let bytes = 0;
const start = performance.now();
for (const { layout, rows: length } of datasets) {
  const fields = [...layout.stored, ...layout.st0601];
  const children = fields.map((field) => column(field.kind, length));
  const schemaFields = fields.map((field, index) => new Field(field.name, children[index].type, field.nullable));
  const batch = new RecordBatch(new Schema(schemaFields), makeData({ type: new Struct(schemaFields), length, children, nullCount: 0 }));
  for await (const chunk of RecordBatchStreamWriter.writeAll([batch])) bytes += chunk.byteLength;
  rows += length;
}
const ms = performance.now() - start;
const loading = performance.now();
await import('parquet-wasm');
const parquetLoadMs = performance.now() - loading;
console.log(JSON.stringify({ rows, bytes, inProcessMs: ms, parquetLoadMs, maxRssKb: process.resourceUsage().maxRSS }));
process.exit(0);
