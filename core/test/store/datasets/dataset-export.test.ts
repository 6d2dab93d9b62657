/**
 * Raw datasets as downloadable text: JSON in the shape of a page, NDJSON,
 * CSV, made chunk by chunk from a statement.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { Database } from 'sql.js';
import type { Observation } from '../../../src/kernel/observations.js';
import { DatasetError } from '../../../src/store/datasets/dataset-error.js';
import { DEFAULT_CHUNK_BYTES, exportDataset, writeDataset, type DatasetExportOptions, type DatasetFormat } from '../../../src/store/datasets/dataset-export.js';
import { MAX_DATASET_LIMIT, readDataset } from '../../../src/store/datasets/dataset-query.js';
import { createObservationWriter } from '../../../src/store/datasets/observation-writer.js';
import { RAW_DATASET_NAMES } from '../../../src/store/datasets/raw-datasets.js';
import { observeKlvPacket } from '../../../src/klv/klv-packet-observer.js';
import { scanKlvStream } from '../../../src/klv/klv-triplet.js';
import { rowCodecOf } from '../../../src/store/datasets/observation-row-codec.js';
import { fixtureOrSkip } from '../../../../test-support/fixtures.js';
import { malformedSt0601Packets } from '../../klv/st0601-hand-made-packets.js';
import { demuxObservations, GENERATED_CASES, generatedObservations } from './generated-observations.js';
import { packetsKeptAsTriplets, runDatabaseInMemory } from './run-database-in-memory.js';

function text(db: Database, name: string, format: DatasetFormat, options: DatasetExportOptions = {}): string {
  return Buffer.concat([...exportDataset(db, name, format, options)]).toString('utf8');
}

/** RFC 4180 records of a CSV text (quoted fields with "" for a quote, CRLF between records); null for an unquoted empty field. */
function parseCsv(csv: string): Array<Array<string | null>> {
  const records: Array<Array<string | null>> = [];
  let record: Array<string | null> = [];
  let i = 0;
  while (i < csv.length) {
    let field: string | null;
    if (csv[i] === '"') {
      field = '';
      i++;
      for (;;) {
        const quote = csv.indexOf('"', i);
        field += csv.slice(i, quote);
        i = quote + 1;
        if (csv[i] !== '"') break;
        field += '"';
        i++;
      }
    } else {
      let end = i;
      while (end < csv.length && csv[end] !== ',' && csv[end] !== '\r') end++;
      field = end === i ? null : csv.slice(i, end);
      i = end;
    }
    record.push(field);
    if (csv[i] === ',') i++;
    else if (csv.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
    } else if (i < csv.length) throw new Error(`bad CSV at ${i}`);
  }
  return records;
}

describe('raw dataset export', function () {
  this.timeout(30_000);
  let db: Database;
  before(async () => {
    db = await runDatabaseInMemory();
    const writer = createObservationWriter(db);
    generatedObservations(GENERATED_CASES[1].options).observations.forEach(writer.write);
    const at = { offset: 0, packetIndex: 0, t: null, pid: -1 };
    const awkward: Observation[] = [
      { kind: 'ts-error', type: 'sync-loss', severity: 'error', tr101290: '1.1', message: 'lost, then "found"\r\nagain', details: { note: 'a,b' }, ...at },
      { kind: 'ts-error', type: 'truncated-packet', severity: 'warning', tr101290: null, message: '', ...at },
      { kind: 'ts-error', type: 'pmt-error', severity: 'error', tr101290: '1.5', message: 'tab\there, a lone \ud800 and a back\\slash', details: { gap: NaN, zero: -0 }, ...at },
      { kind: 'klv-field', klvIndex: 0, tag: 2, name: 'odd "name"', rawHex: '00', value: { nested: [1, 'two', null] }, units: null, ...at },
    ];
    awkward.forEach(writer.write);
    writer.finish();
  });
  after(() => db.close());

  it('writes JSON that parses back to the page readDataset gives', () => {
    const requests: Array<[string, DatasetExportOptions]> = [
      ['klv/fields', { limit: 250 }],
      ['klv/fields', { limit: 250, offset: 100 }],
      ['mpegts/errors', { types: 'sync-loss,continuity-error' }],
    ];
    for (const [name, options] of requests) expect(JSON.parse(text(db, name, 'json', options)), name).to.deep.equal(readDataset(db, name, options));
  });

  it('writes every row of the dataset when no limit is given', () => {
    const whole = readDataset(db, 'klv/fields', { limit: MAX_DATASET_LIMIT });
    const exported = JSON.parse(text(db, 'klv/fields', 'json')) as typeof whole;
    expect(exported.rows).to.have.length(whole.total);
    expect(exported).to.deep.equal(whole);
  });

  it('gives the cursor of the rows that follow after an export with a limit', () => {
    const output = exportDataset(db, 'mpegts/pes-timestamps', 'ndjson', { limit: 10 });
    expect(output.nextCursor).to.equal(null);
    const lines = [...output].join('');
    expect(output.rows).to.equal(10);
    expect(output.nextCursor).to.equal(readDataset(db, 'mpegts/pes-timestamps', { limit: 10 }).nextCursor);
    expect(lines.split('\n')).to.have.length(11);
  });

  it('writes NDJSON with one line per row, each the row as JSON', () => {
    const { rows, total } = readDataset(db, 'mpegts/pes-timestamps', { limit: MAX_DATASET_LIMIT });
    const ndjson = text(db, 'mpegts/pes-timestamps', 'ndjson');
    expect(ndjson.endsWith('\n')).to.be.true;
    const lines = ndjson.slice(0, -1).split('\n');
    expect(lines).to.have.length(total);
    expect(lines.map((line) => JSON.parse(line) as unknown)).to.deep.equal(rows);
  });

  it('writes every dataset\'s NDJSON and JSON rows exactly as JSON.stringify writes its rows (escapes, nested and tagged values, items from triplets)', () => {
    for (const name of RAW_DATASET_NAMES) {
      const { rows, total } = readDataset(db, name, { limit: MAX_DATASET_LIMIT });
      expect(text(db, name, 'ndjson'), name).to.equal(rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
      expect(text(db, name, 'json'), name).to.equal(JSON.stringify({ total, rows, nextCursor: null }));
    }
  });

  /** Every dataset's NDJSON of `observations` stored in a database of its own, against JSON.stringify of its rows. */
  async function expectNdjsonOfRows(observations: readonly Observation[], label: string): Promise<void> {
    const own = await runDatabaseInMemory();
    try {
      const writer = createObservationWriter(own);
      observations.forEach(writer.write);
      writer.finish();
      for (const name of RAW_DATASET_NAMES) {
        const { rows } = readDataset(own, name, { limit: MAX_DATASET_LIMIT });
        expect(text(own, name, 'ndjson'), `${label}: ${name}`).to.equal(rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
      }
    } finally {
      own.close();
    }
  }

  it('writes the NDJSON of the other generated stream as JSON.stringify writes its rows', async () => {
    await expectNdjsonOfRows(generatedObservations(GENERATED_CASES[0].options).observations, GENERATED_CASES[0].name);
  });

  for (const file of ['kwiver_h264_klv.ts', 'kwiver_aphill_klv_10s.ts', 'osh-addons_sample-stream.ts']) {
    it(`writes the NDJSON of the real recording ${file} as JSON.stringify writes its rows`, async function () {
      await expectNdjsonOfRows(demuxObservations(readFileSync(fixtureOrSkip(this, 'real', file))), file);
    });
  }

  it('writes klv/metadata-packets and klv/fields of ST 0601 packets kept as their triplets, well formed or not, as the KLV observer emitted them', async function () {
    const realflight = new Uint8Array(readFileSync(fixtureOrSkip(this, 'klv', 'klvdata_realflight.klv.bin')));
    const triplets = [...scanKlvStream(realflight).triplets.map((t) => realflight.slice(t.keyOffset, t.end)), ...malformedSt0601Packets()];
    const observations: Observation[] = [];
    triplets.forEach((raw, i) => {
      const origin = { offset: 188 * i, packetIndex: i, pts90kHz: null };
      observeKlvPacket(raw, 0, raw.length, { pid: 258, klvIndex: i, carriage: 'async', origin }, (o) => observations.push(o));
    });
    const own = await runDatabaseInMemory();
    try {
      const writer = createObservationWriter(own);
      observations.forEach(writer.write);
      writer.finish();
      // Every triplet but the one too short for its key is a packet, kept as its triplet.
      expect(packetsKeptAsTriplets(own)).to.deep.equal(Array<boolean>(triplets.length - 1).fill(true));
      for (const [name, kind] of [['klv/metadata-packets', 'metadata-packet'], ['klv/fields', 'klv-field']] as const) {
        const emitted = observations.filter((o) => o.kind === kind) as unknown as Record<string, unknown>[];
        const lines = text(own, name, 'ndjson').trimEnd().split('\n');
        expect(lines, name).to.have.length(emitted.length);
        // Each line is the emitted observation's fields in the dataset's order, after the seq the store gave it.
        const fields = rowCodecOf(kind).datasetFields;
        const expected = emitted.map((o, i) => {
          const { seq } = JSON.parse(lines[i]) as { seq: number };
          return JSON.stringify(Object.fromEntries(fields.map((field) => [field, field === 'seq' ? seq : (o[field] ?? null)])));
        });
        expect(lines, name).to.deep.equal(expected);
      }
    } finally {
      own.close();
    }
  });

  it('writes CSV with a header row of the field names and one record per row', () => {
    const { rows, total } = readDataset(db, 'mpegts/pcr-values', { limit: MAX_DATASET_LIMIT });
    const [header, ...records] = parseCsv(text(db, 'mpegts/pcr-values', 'csv'));
    expect(header).to.deep.equal(['seq', 'offset', 'packetIndex', 't', 'pid', 'pcr27MHz', 'discontinuity']);
    expect(records).to.have.length(total);
    expect(records[0]).to.deep.equal(header.map((field) => (rows[0][field as string] === null ? null : String(rows[0][field as string]))));
  });

  it('quotes commas, quotes and line breaks in CSV, writes nested values as JSON, and tells null from the empty string', () => {
    const [header, ...records] = parseCsv(text(db, 'mpegts/errors', 'csv', { types: 'sync-loss,truncated-packet' }));
    const column = (name: string) => records.map((r) => r[header.indexOf(name)]);
    expect(column('message')).to.deep.equal(['lost, then "found"\r\nagain', '']);
    expect(column('details')).to.deep.equal(['{"note":"a,b"}', null]);
    expect(column('tr101290')).to.deep.equal(['1.1', null]);
  });

  it('hands a large dataset over in several chunks of UTF-8 bytes, each of about chunkBytes and still whole once the next are made', () => {
    const chunks = [...exportDataset(db, 'klv/fields', 'csv')];
    expect(chunks.length).to.be.greaterThan(3);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).to.be.within(DEFAULT_CHUNK_BYTES, DEFAULT_CHUNK_BYTES + 4096);
    // A chunk kept while the next ones are made (a slow client) is not written over.
    expect(Buffer.concat(chunks).toString('utf8')).to.equal(text(db, 'klv/fields', 'csv'));
    const small = [...exportDataset(db, 'klv/fields', 'json', { chunkBytes: 1000 })];
    expect(small.length).to.be.greaterThan(chunks.length * 10);
    expect(JSON.parse(small.join(''))).to.deep.equal(JSON.parse(text(db, 'klv/fields', 'json')));
  });

  it('awaits each write and reports the total, the rows written and the next cursor', async () => {
    const written: string[] = [];
    const summary = await writeDataset(db, 'klv/metadata-packets', { limit: 20, chunkBytes: 4096 }, 'ndjson', async (chunk) => {
      await new Promise((resolve) => setImmediate(resolve));
      written.push(chunk.toString('utf8'));
    });
    const page = readDataset(db, 'klv/metadata-packets', { limit: 20 });
    expect(summary).to.deep.equal({ total: page.total, rows: 20, nextCursor: page.nextCursor });
    expect(written.length).to.be.greaterThan(1);
    expect(written.join('').trimEnd().split('\n').map((line) => JSON.parse(line) as unknown)).to.deep.equal(page.rows);
  });

  it('tells the media type of each format', () => {
    expect(['json', 'ndjson', 'csv'].map((f) => exportDataset(db, 'mpegts/pid-stats', f).mediaType)).to.deep.equal([
      'application/json; charset=utf-8',
      'application/x-ndjson; charset=utf-8',
      'text/csv; charset=utf-8; header=present',
    ]);
  });

  it('refuses a bad request before any text is made', () => {
    for (const [name, format, options] of [
      ['klv/fields', 'xml', {}],
      ['klv/nothing', 'json', {}],
      ['mpegts/errors', 'csv', { types: 'nonsense' }],
      ['klv/fields', 'json', { chunkBytes: 0 }],
    ] as Array<[string, string, DatasetExportOptions]>) {
      expect(() => exportDataset(db, name, format, options), `${name} ${format}`).to.throw(DatasetError);
    }
  });

  it('rejects writeDataset with the typed error of a bad parameter', async () => {
    let error: unknown;
    await writeDataset(db, 'mpegts/table-positions', { tableType: 'SDT' }, 'json', () => undefined).catch((e: unknown) => (error = e));
    expect(error).to.be.an.instanceOf(DatasetError).with.property('code', 'ERR_DATASET_INVALID_PARAMETER');
  });

  it('frees its statement when the consumer stops early, so the table can be changed again', async () => {
    const scratch = await runDatabaseInMemory();
    const writer = createObservationWriter(scratch);
    for (let i = 0; i < 2000; i++) writer.write({ kind: 'pcr', pid: 0x100, pcr27MHz: i, discontinuity: false, offset: i, packetIndex: i, t: null });
    writer.finish();
    for (const chunk of exportDataset(scratch, 'mpegts/pcr-values', 'csv', { chunkBytes: 100 })) {
      expect(chunk.toString('utf8')).to.contain('seq');
      break;
    }
    // SQLite refuses to drop a table that a live statement still reads.
    expect(() => scratch.run('DROP TABLE pcr')).to.not.throw();
    scratch.close();
  });
});
