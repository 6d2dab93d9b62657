/**
 * The columnar export's batches: the rows of every dataset cut into record
 * batches at any size, paged by limit and offset, equal to the NDJSON rows
 * (read back with apache-arrow's reader; the gateway's tests read the files
 * with DuckDB and arrow-rs), every value of every column: the ST 0601 item
 * columns and the leftover `items` of klv/metadata-packets from the NDJSON
 * rows' items as dataset-arrow-layout.ts says.
 */
import { expect } from 'chai';
import { tableFromIPC, type Table, type Vector } from 'apache-arrow';
import type { Database } from 'sql.js';
import { datasetArrowLayout } from '../../../src/store/datasets/dataset-arrow-layout.js';
import { WIDE_BATCH_DIVISOR } from '../../../src/store/datasets/dataset-record-batches.js';
import { rowCodecOf } from '../../../src/store/datasets/observation-row-codec.js';
import { exportDataset } from '../../../src/store/datasets/dataset-export.js';
import { exportDatasetColumnar, type ColumnarExportOptions } from '../../../src/store/datasets/dataset-columnar-export.js';
import { createObservationWriter } from '../../../src/store/datasets/observation-writer.js';
import { RAW_DATASETS } from '../../../src/store/datasets/raw-datasets.js';
import { GENERATED_CASES, generatedObservations } from './generated-observations.js';
import { packetsKeptAsTriplets, runDatabaseInMemory } from './run-database-in-memory.js';
import type { RawDatasetDefinition } from '../../../src/store/datasets/raw-datasets.js';
import type { Observation } from '../../../src/kernel/observations.js';
import { observeKlvPacket } from '../../../src/klv/klv-packet-observer.js';
import { packetFromItems, TIME_AND_VERSION } from '../../klv/st0601-hand-made-packets.js';

async function arrowBytes(db: Database, name: string, options: ColumnarExportOptions): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of exportDatasetColumnar(db, name, 'arrow', options)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function ndjsonRows(db: Database, name: string, options: { limit?: number; offset?: number } = {}): Array<Record<string, unknown>> {
  const text = Buffer.concat([...exportDataset(db, name, 'ndjson', options)]).toString('utf8');
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
}

type Row = Record<string, unknown>;
interface Item {
  tag: number;
  value: unknown;
  error?: string;
}

/** A column's values as NDJSON holds them: int64 and timestamps (µs) as numbers from their int64 (apache-arrow gives a timestamp in ms), bytes as hex. */
function columnValues(vector: Vector): unknown[] {
  const values: unknown[] = [];
  for (const data of vector.data) {
    for (let i = 0; i < data.length; i++) {
      if (!data.getValid(i)) values.push(null);
      else if (data.values instanceof BigInt64Array) values.push(Number(data.values[i]));
      else if (data.typeId === 4 /* Binary */) values.push(Buffer.from((vector.get(values.length) as Uint8Array)).toString('hex'));
      else values.push(vector.get(values.length));
    }
  }
  return values;
}

/** What each Arrow column of the dataset should hold, from its NDJSON rows. */
function expectedColumns(dataset: RawDatasetDefinition, rows: Row[]): Map<string, unknown[]> {
  const layout = datasetArrowLayout(dataset);
  const { columns } = rowCodecOf(dataset.kind);
  const json = new Set(columns.filter((column) => column.type === 'json').map((column) => column.property));
  const expected = new Map<string, unknown[]>();
  layout.stored.forEach((field, index) => {
    // NDJSON names a blob `<property>Hex` (klv/packets' raw as rawHex).
    const source = index > 0 && columns[index - 1].type === 'blob' ? `${field.name}Hex` : field.name;
    if (field.name === 'items' && layout.st0601.length > 0) return;
    // JSON columns hold the JSON text of the NDJSON value (null as null); klv/fields' value its JSON text always ("null" too).
    const fieldValue = dataset.kind === 'klv-field' && field.name === 'value';
    const asJson = json.has(field.name) || fieldValue;
    expected.set(field.name, rows.map((row) => (row[source] === null && !fieldValue ? null : asJson ? JSON.stringify(row[source]) : row[source])));
  });
  if (layout.st0601.length === 0) return expected;
  // klv/metadata-packets: an ST 0601 packet's items without an error go to their columns (once, unless the item may repeat); the rest stay in items.
  const byTag = new Map(layout.st0601.map((column, index) => [column.tag, index]));
  const cells = layout.st0601.map(() => rows.map((): unknown => null));
  const rest: unknown[] = [];
  rows.forEach((row, r) => {
    const left: Item[] = [];
    const repeated = new Map<number, unknown[]>();
    for (const item of row.items as Item[]) {
      const index = row.keyName === 'st0601-uas-datalink-ls' && item.error === undefined ? byTag.get(item.tag) : undefined;
      if (index === undefined) left.push(item);
      else if (layout.st0601[index].spec.mayRepeat) repeated.set(index, [...(repeated.get(index) ?? []), item.value]);
      else if (cells[index][r] !== null || left.some((other) => other === item)) left.push(item);
      else cells[index][r] = item.value === undefined ? null : item.value;
    }
    for (const [index, values] of repeated) cells[index][r] = JSON.stringify(values);
    rest.push(left.length === 0 ? null : JSON.stringify(left));
  });
  expected.set('items', rest);
  layout.st0601.forEach((column, index) => {
    expected.set(
      column.name,
      cells[index].map((value) => {
        if (value === null || column.spec.mayRepeat) return value;
        if (column.kind === 'utf8') return typeof value === 'string' ? value : JSON.stringify(value);
        // A number column holds numbers; an int64 one whole numbers only.
        if (typeof value !== 'number' || (column.kind !== 'float64' && !Number.isSafeInteger(value))) return null;
        return value;
      }),
    );
  });
  return expected;
}

function expectColumnsEqual(dataset: RawDatasetDefinition, table: Table, rows: Row[], label: string): void {
  const expected = expectedColumns(dataset, rows);
  const layout = datasetArrowLayout(dataset);
  expect(table.schema.fields.map((field) => field.name), label).to.deep.equal([...layout.stored, ...layout.st0601].map((field) => field.name));
  for (const [name, values] of expected) {
    const column = table.getChild(name);
    expect(column, `${label} ${name}`).to.not.equal(null);
    expect(columnValues(column as Vector), `${label} ${name}`).to.deep.equal(values);
  }
}

describe('columnar export of the raw datasets', function () {
  this.timeout(120_000);
  let db: Database;
  before(async () => {
    db = await runDatabaseInMemory();
    const writer = createObservationWriter(db);
    for (const observation of generatedObservations(GENERATED_CASES[0].options).observations) writer.write(observation);
    writer.finish();
  });
  after(() => db.close());

  for (const batchRows of [7, 1000]) {
    it(`cuts every dataset into batches of ${batchRows} rows (a metadata packet's of a sixteenth as many) holding the NDJSON rows`, async () => {
      for (const dataset of RAW_DATASETS) {
        const rows = ndjsonRows(db, dataset.name);
        const table = tableFromIPC(await arrowBytes(db, dataset.name, { batchRows }));
        expect(table.numRows, dataset.name).to.equal(rows.length);
        const perBatch = Math.min(dataset.kind === 'metadata-packet' ? Math.ceil(batchRows / WIDE_BATCH_DIVISOR) : batchRows, Math.max(rows.length, 1));
        expect(table.batches.length, dataset.name).to.equal(Math.max(1, Math.ceil(rows.length / perBatch)));
        expect(table.schema.fields.map((field) => field.name).slice(0, 3), dataset.name).to.deep.equal(['seq', 'offset', 'packetIndex']);
        const seqs = Array.from(table.getChild('seq') ?? [], Number);
        expect(seqs, dataset.name).to.deep.equal(rows.map((row) => row.seq));
        const t = Array.from(table.getChild('t') ?? []);
        expect(t, dataset.name).to.deep.equal(rows.map((row) => row.t));
      }
    });
  }

  for (const generated of GENERATED_CASES) {
    it(`holds every value of every column as the NDJSON rows have it, in batches of 3 rows and whole: ${generated.name}`, async () => {
      const own = await runDatabaseInMemory();
      try {
        const writer = createObservationWriter(own);
        for (const observation of generatedObservations(generated.options).observations) writer.write(observation);
        writer.finish();
        // Most packets kept as their triplet (their items read from the bytes), and some as JSON items (the faults).
        const kept = packetsKeptAsTriplets(own);
        expect(kept.filter((triplet) => triplet).length).to.be.greaterThan(kept.length / 2);
        for (const dataset of RAW_DATASETS) {
          const rows = ndjsonRows(own, dataset.name);
          for (const batchRows of [3, undefined]) {
            const table = tableFromIPC(await arrowBytes(own, dataset.name, { batchRows }));
            expectColumnsEqual(dataset, table, rows, `${dataset.name} (batches of ${batchRows ?? 'the default'})`);
          }
          if (dataset.kind === 'metadata-packet') {
            // The faults leave items with no column of their own (an unknown tag, a repeat, an item that could not be decoded).
            const table = tableFromIPC(await arrowBytes(own, dataset.name, {}));
            expect(columnValues(table.getChild('items') as Vector).filter((items) => items !== null).length, dataset.name).to.be.greaterThan(0);
          }
        }
      } finally {
        own.close();
      }
    });
  }

  it('writes klv/fields values that repeat the packet before (their text copied) and nested sets that hold their offset as the NDJSON does', async () => {
    // Tag 10's text, tag 5's number and the time stamp repeat packet to packet; tag 73 (RVT, a nested set framed
    // generically) has a framing error whose byteOffset moves when tag 13 comes before it, its bytes the same.
    const rvt = '4903010541';
    const itemsOf = (i: number): string => `${TIME_AND_VERSION}0a03414243050271c2${i % 3 === 1 ? '0d0401020304' : ''}${rvt}`;
    const observations: Observation[] = [];
    for (let i = 0; i < 9; i++) {
      const raw = packetFromItems(itemsOf(i));
      observeKlvPacket(raw, 0, raw.length, { pid: 258, klvIndex: i, carriage: 'async', origin: { offset: 188 * i, packetIndex: i, pts90kHz: null } }, (o) => observations.push(o));
    }
    const own = await runDatabaseInMemory();
    try {
      const writer = createObservationWriter(own);
      observations.forEach(writer.write);
      writer.finish();
      expect(packetsKeptAsTriplets(own)).to.deep.equal(Array<boolean>(9).fill(true));
      const rows = ndjsonRows(own, 'klv/fields');
      const rvtTexts = new Set(rows.filter((row) => row.tag === 73).map((row) => JSON.stringify(row.value)));
      expect(rvtTexts.size, 'RVT values at two offsets').to.equal(2);
      expect(rows.filter((row) => row.tag === 10).map((row) => row.value)).to.deep.equal(Array<string>(9).fill('ABC'));
      for (const batchRows of [3, 4, undefined]) {
        const table = tableFromIPC(await arrowBytes(own, 'klv/fields', { batchRows }));
        expect(Array.from(table.getChild('value') ?? []), `batches of ${batchRows ?? 'the default'}`).to.deep.equal(rows.map((row) => JSON.stringify(row.value)));
        expectColumnsEqual(RAW_DATASETS.find((dataset) => dataset.name === 'klv/fields') as RawDatasetDefinition, table, rows, `klv/fields (batches of ${batchRows ?? 'the default'})`);
      }
    } finally {
      own.close();
    }
  });

  it('pages with limit and offset as the NDJSON export does', async () => {
    const rows = ndjsonRows(db, 'klv/fields', { limit: 50, offset: 120 });
    const table = tableFromIPC(await arrowBytes(db, 'klv/fields', { limit: 50, offset: 120, batchRows: 16 }));
    expect(Array.from(table.getChild('seq') ?? [], Number)).to.deep.equal(rows.map((row) => row.seq));
    expect(Array.from(table.getChild('name') ?? [])).to.deep.equal(rows.map((row) => row.name));
    expect(Array.from(table.getChild('value') ?? [], (text) => JSON.parse(text as string) as unknown)).to.deep.equal(rows.map((row) => row.value));
  });

  it('refuses an unknown format and a batch size below one before any byte', () => {
    expect(() => exportDatasetColumnar(db, 'klv/fields', 'orc')).to.throw('format must be one of arrow, parquet');
    expect(() => exportDatasetColumnar(db, 'klv/fields', 'arrow', { batchRows: 0 })).to.throw('batchRows must be a whole number');
  });
});
