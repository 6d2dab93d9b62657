/**
 * The columnar export's batches: the rows of every dataset cut into record
 * batches at any size, paged by limit and offset, equal to the NDJSON rows
 * (read back with apache-arrow's reader; the gateway's tests read the files
 * with DuckDB and arrow-rs).
 */
import { expect } from 'chai';
import { tableFromIPC } from 'apache-arrow';
import type { Database } from 'sql.js';
import { exportDataset } from '../../../src/store/datasets/dataset-export.js';
import { exportDatasetColumnar, type ColumnarExportOptions } from '../../../src/store/datasets/dataset-columnar-export.js';
import { createObservationWriter } from '../../../src/store/datasets/observation-writer.js';
import { RAW_DATASETS } from '../../../src/store/datasets/raw-datasets.js';
import { GENERATED_CASES, generatedObservations } from './generated-observations.js';
import { runDatabaseInMemory } from './run-database-in-memory.js';

async function arrowBytes(db: Database, name: string, options: ColumnarExportOptions): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of exportDatasetColumnar(db, name, 'arrow', options)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function ndjsonRows(db: Database, name: string, options: { limit?: number; offset?: number } = {}): Array<Record<string, unknown>> {
  const text = Buffer.concat([...exportDataset(db, name, 'ndjson', options)]).toString('utf8');
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
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
    it(`cuts every dataset into batches of ${batchRows} rows (a metadata packet's of a quarter as many) holding the NDJSON rows`, async () => {
      for (const dataset of RAW_DATASETS) {
        const rows = ndjsonRows(db, dataset.name);
        const table = tableFromIPC(await arrowBytes(db, dataset.name, { batchRows }));
        expect(table.numRows, dataset.name).to.equal(rows.length);
        const perBatch = Math.min(dataset.kind === 'metadata-packet' ? Math.ceil(batchRows / 4) : batchRows, Math.max(rows.length, 1));
        expect(table.batches.length, dataset.name).to.equal(Math.max(1, Math.ceil(rows.length / perBatch)));
        expect(table.schema.fields.map((field) => field.name).slice(0, 3), dataset.name).to.deep.equal(['seq', 'offset', 'packetIndex']);
        const seqs = Array.from(table.getChild('seq') ?? [], Number);
        expect(seqs, dataset.name).to.deep.equal(rows.map((row) => row.seq));
        const t = Array.from(table.getChild('t') ?? []);
        expect(t, dataset.name).to.deep.equal(rows.map((row) => row.t));
      }
    });
  }

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
