/**
 * The nine raw datasets of an ingest run read from a run database holding
 * the observations of a generated stream with faults: one row per
 * observation of the dataset's kind, paged by offset or cursor, filtered by
 * tableType and types, and bad parameters refused with typed errors.
 */
import { expect } from 'chai';
import type { Database } from 'sql.js';
import type { Observation, ObservationOf } from '../../../src/kernel/observations.js';
import { bytesToHex } from '../../../src/klv/hex.js';
import { DEFAULT_DATASET_LIMIT, MAX_DATASET_LIMIT, readDataset, type DatasetQueryOptions } from '../../../src/store/datasets/dataset-query.js';
import type { ObservationCounts } from '../../../src/store/datasets/observation-counts.js';
import { createObservationWriter } from '../../../src/store/datasets/observation-writer.js';
import { RAW_DATASET_NAMES, RAW_DATASETS, isRawDatasetName, rawDataset } from '../../../src/store/datasets/raw-datasets.js';
import type { DatasetRow } from '../../../src/store/datasets/observation-row-codec.js';
import { GENERATED_CASES, generatedObservations } from './generated-observations.js';
import { runDatabaseInMemory } from './run-database-in-memory.js';
import { datasetErrorOf } from './dataset-error-of.js';

/** Every row of a dataset, paging by cursor with `limit` rows per page. */
function allByCursor(db: Database, name: string, limit: number, options: DatasetQueryOptions = {}): { rows: DatasetRow[]; pages: number } {
  const rows: DatasetRow[] = [];
  let pages = 0;
  let cursor: string | undefined;
  for (;;) {
    const page = readDataset(db, name, { ...options, limit, cursor });
    pages++;
    rows.push(...page.rows);
    if (page.nextCursor === null) return { rows, pages };
    cursor = page.nextCursor;
  }
}

describe('raw datasets', function () {
  this.timeout(30_000);
  let db: Database;
  let observations: Observation[];
  let writerCounts: ObservationCounts;
  before(async () => {
    observations = generatedObservations(GENERATED_CASES[0].options).observations;
    db = await runDatabaseInMemory();
    const writer = createObservationWriter(db);
    observations.forEach(writer.write);
    writerCounts = writer.finish();
  });
  after(() => db.close());

  function ofKind<K extends Observation['kind']>(kind: K): Array<ObservationOf<K>> {
    return observations.filter((o): o is ObservationOf<K> => o.kind === kind);
  }

  /** The rows a dataset should hold: its kind's observations with their seq (1-based emission index), without kind. */
  function expectedRows(kind: Observation['kind']): DatasetRow[] {
    const rows: DatasetRow[] = [];
    observations.forEach((o, index) => {
      if (o.kind !== kind) return;
      const { kind: _kind, ...fields } = o as Observation & { details?: unknown; raw?: Uint8Array };
      const row: DatasetRow = { seq: index + 1, ...fields };
      if (o.kind === 'klv-packet') {
        delete row.raw;
        row.rawHex = bytesToHex(o.raw);
      }
      if ((o.kind === 'ts-error' || o.kind === 'klv-error') && o.details === undefined) row.details = null;
      rows.push(row);
    });
    return rows;
  }

  it('lists the nine datasets of the inspection service, each with a description and its fields', () => {
    expect(RAW_DATASET_NAMES).to.deep.equal([
      'mpegts/pid-stats',
      'mpegts/pcr-values',
      'mpegts/table-positions',
      'mpegts/pes-timestamps',
      'mpegts/discontinuity-indicators',
      'mpegts/errors',
      'klv/packets',
      'klv/metadata-packets',
      'klv/fields',
    ]);
    expect(RAW_DATASETS.map((d) => [d.name, d.kind])).to.deep.equal([
      ['mpegts/pid-stats', 'pid-stats'],
      ['mpegts/pcr-values', 'pcr'],
      ['mpegts/table-positions', 'psi-section'],
      ['mpegts/pes-timestamps', 'pes'],
      ['mpegts/discontinuity-indicators', 'discontinuity'],
      ['mpegts/errors', 'ts-error'],
      ['klv/packets', 'klv-packet'],
      ['klv/metadata-packets', 'metadata-packet'],
      ['klv/fields', 'klv-field'],
    ]);
    for (const dataset of RAW_DATASETS) {
      expect(dataset.description, dataset.name).to.have.length.greaterThan(40);
      expect(dataset.fields.slice(0, 5), dataset.name).to.deep.equal(['seq', 'offset', 'packetIndex', 't', 'pid']);
    }
    expect(rawDataset('mpegts/errors').filters).to.deep.equal(['types']);
    expect(rawDataset('mpegts/table-positions').filters).to.deep.equal(['tableType']);
    expect(isRawDatasetName('klv/fields')).to.be.true;
    expect(isRawDatasetName('klv/field')).to.be.false;
  });

  for (const dataset of RAW_DATASETS) {
    it(`gives in ${dataset.name} one row per ${dataset.kind} observation: seq and its fields without kind`, () => {
      const expected = expectedRows(dataset.kind);
      expect(expected, 'the generated stream makes this kind').to.not.be.empty;
      const page = readDataset(db, dataset.name, { limit: MAX_DATASET_LIMIT });
      expect(page.total).to.equal(expected.length);
      expect(page.rows).to.deep.equal(expected);
      expect(page.nextCursor).to.equal(null);
      for (const row of page.rows) expect(Object.keys(row)).to.deep.equal(dataset.fields);
    });
  }

  it('shows the KLV bytes of klv/packets as lower-case hex', () => {
    const [first] = readDataset(db, 'klv/packets', { limit: 1 }).rows;
    expect(first.rawHex).to.equal(bytesToHex(ofKind('klv-packet')[0].raw));
    expect(first.rawHex).to.match(/^060e2b34[0-9a-f]+$/);
    expect(first).to.not.have.property('raw');
  });

  it(`gives ${DEFAULT_DATASET_LIMIT} rows when no limit is given, with the total of the whole dataset`, () => {
    const fields = ofKind('klv-field');
    expect(fields.length).to.be.greaterThan(DEFAULT_DATASET_LIMIT);
    const page = readDataset(db, 'klv/fields');
    expect(page.rows).to.have.length(DEFAULT_DATASET_LIMIT);
    expect(page.total).to.equal(fields.length);
    expect(page.nextCursor).to.be.a('string');
  });

  it('pages by offset: the pages put together are the whole dataset, in seq order', () => {
    const whole = readDataset(db, 'klv/fields', { limit: MAX_DATASET_LIMIT }).rows;
    const pages: DatasetRow[] = [];
    for (let offset = 0; offset < whole.length; offset += 700) pages.push(...readDataset(db, 'klv/fields', { limit: 700, offset }).rows);
    expect(pages).to.deep.equal(whole);
    expect(readDataset(db, 'klv/fields', { offset: whole.length }).rows).to.deep.equal([]);
  });

  it('pages by cursor: the pages put together are the whole dataset, and the last page has no next cursor', () => {
    const whole = readDataset(db, 'klv/fields', { limit: MAX_DATASET_LIMIT }).rows;
    const { rows, pages } = allByCursor(db, 'klv/fields', 700);
    expect(rows).to.deep.equal(whole);
    expect(pages).to.equal(Math.ceil(whole.length / 700));
  });

  it('ends on a full last page with a null cursor, not an empty page after it', () => {
    const total = ofKind('pcr').length;
    const page = readDataset(db, 'mpegts/pcr-values', { limit: total });
    expect(page.rows).to.have.length(total);
    expect(page.nextCursor).to.equal(null);
  });

  it('continues a cursor after its row even when an offset page came first', () => {
    const first = readDataset(db, 'mpegts/pes-timestamps', { limit: 5, offset: 10 });
    const next = readDataset(db, 'mpegts/pes-timestamps', { limit: 5, cursor: first.nextCursor ?? undefined });
    expect(next.rows.map((r) => r.seq)).to.deep.equal(readDataset(db, 'mpegts/pes-timestamps', { limit: 5, offset: 15 }).rows.map((r) => r.seq));
  });

  for (const tableType of ['PAT', 'PMT'] as const) {
    it(`keeps only the ${tableType} sections of mpegts/table-positions with tableType=${tableType}, with their total`, () => {
      const matching = ofKind('psi-section').filter((s) => s.tableType === tableType);
      expect(matching).to.not.be.empty;
      const page = readDataset(db, 'mpegts/table-positions', { tableType, limit: MAX_DATASET_LIMIT });
      expect(page.total).to.equal(matching.length);
      expect(page.rows.map((r) => [r.tableType, r.offset])).to.deep.equal(matching.map((s) => [tableType, s.offset]));
      expect(allByCursor(db, 'mpegts/table-positions', 7, { tableType }).rows).to.deep.equal(page.rows);
    });
  }

  it('keeps only the error types named in types, comma-separated or as a list, with their total', () => {
    const wanted = ['continuity-error', 'psi-crc-error'];
    const matching = ofKind('ts-error').filter((e) => wanted.includes(e.type));
    expect(matching).to.have.length(2);
    expect(ofKind('ts-error').length).to.be.greaterThan(matching.length);
    const page = readDataset(db, 'mpegts/errors', { types: 'continuity-error, psi-crc-error' });
    expect(page.total).to.equal(2);
    expect(page.rows.map((r) => [r.type, r.offset])).to.deep.equal(matching.map((e) => [e.type, e.offset]));
    expect(readDataset(db, 'mpegts/errors', { types: ['continuity-error', 'psi-crc-error'] })).to.deep.equal(page);
    expect(readDataset(db, 'mpegts/errors', { types: 'scrambled-packet' })).to.deep.equal({ total: 0, rows: [], nextCursor: null });
  });

  it('treats empty filter and paging strings as absent', () => {
    const plain = readDataset(db, 'mpegts/errors');
    expect(readDataset(db, 'mpegts/errors', { types: '', cursor: '', limit: '', offset: '' })).to.deep.equal(plain);
    expect(readDataset(db, 'mpegts/table-positions', { tableType: '' }).total).to.equal(ofKind('psi-section').length);
  });

  it("gives the writer's count of a kind as the total of its unfiltered dataset", () => {
    for (const dataset of RAW_DATASETS) expect(readDataset(db, dataset.name).total, dataset.name).to.equal(writerCounts[dataset.kind]);
  });

  it('takes a known total for an unfiltered query without counting, and counts when a filter applies', () => {
    const unfilteredTotal = 123_456;
    expect(readDataset(db, 'mpegts/errors', { unfilteredTotal, limit: 1 }).total).to.equal(unfilteredTotal);
    expect(readDataset(db, 'mpegts/errors', { unfilteredTotal, types: '' }).total).to.equal(unfilteredTotal);
    expect(readDataset(db, 'mpegts/errors', { unfilteredTotal, types: 'continuity-error, psi-crc-error' }).total).to.equal(2);
    expect(readDataset(db, 'mpegts/table-positions', { unfilteredTotal, tableType: 'PAT' }).total).to.equal(ofKind('psi-section').filter((s) => s.tableType === 'PAT').length);
  });

  it('accepts limit and offset as decimal text, as they come in a query string', () => {
    expect(readDataset(db, 'mpegts/pcr-values', { limit: '3', offset: '2' })).to.deep.equal(readDataset(db, 'mpegts/pcr-values', { limit: 3, offset: 2 }));
  });

  describe('refuses bad requests with typed errors', () => {
    it('names the unknown dataset with ERR_DATASET_UNKNOWN', () => {
      const error = datasetErrorOf(() => readDataset(db, 'mpegts/pcr'));
      expect(error.code).to.equal('ERR_DATASET_UNKNOWN');
      expect(error.message).to.contain("'mpegts/pcr'");
    });

    for (const limit of [0, -1, 1.5, MAX_DATASET_LIMIT + 1, 'ten', '1e3', NaN]) {
      it(`refuses limit ${typeof limit === 'string' ? `'${limit}'` : String(limit)}`, () => {
        const error = datasetErrorOf(() => readDataset(db, 'klv/fields', { limit }));
        expect([error.code, error.details?.parameter]).to.deep.equal(['ERR_DATASET_INVALID_PARAMETER', 'limit']);
      });
    }

    it('refuses a negative offset', () => {
      expect(datasetErrorOf(() => readDataset(db, 'klv/fields', { offset: -1 })).details?.parameter).to.equal('offset');
    });

    it('refuses offset and cursor together', () => {
      const cursor = readDataset(db, 'klv/fields', { limit: 1 }).nextCursor ?? '';
      const error = datasetErrorOf(() => readDataset(db, 'klv/fields', { offset: 1, cursor }));
      expect([error.code, error.details?.parameter]).to.deep.equal(['ERR_DATASET_INVALID_PARAMETER', 'cursor']);
    });

    for (const cursor of ['not a cursor', 'djE6', 'eHl6', 'djE6LTE']) {
      it(`refuses the cursor '${cursor}', which no page gave`, () => {
        const error = datasetErrorOf(() => readDataset(db, 'klv/fields', { cursor }));
        expect([error.code, error.details?.parameter]).to.deep.equal(['ERR_DATASET_INVALID_PARAMETER', 'cursor']);
      });
    }

    for (const tableType of ['CAT', 'pat', 'other']) {
      it(`refuses tableType '${tableType}': only PAT and PMT`, () => {
        const error = datasetErrorOf(() => readDataset(db, 'mpegts/table-positions', { tableType }));
        expect([error.code, error.details?.parameter]).to.deep.equal(['ERR_DATASET_INVALID_PARAMETER', 'tableType']);
        expect(error.message).to.contain('PAT or PMT');
      });
    }

    it('names the unknown error type in types', () => {
      const error = datasetErrorOf(() => readDataset(db, 'mpegts/errors', { types: 'continuity-error,cc-error' }));
      expect([error.code, error.details?.parameter, error.details?.unknown]).to.deep.equal(['ERR_DATASET_INVALID_PARAMETER', 'types', 'cc-error']);
      expect(error.message).to.contain("'cc-error'");
    });

    it('refuses a filter the dataset does not take rather than ignoring it', () => {
      expect(datasetErrorOf(() => readDataset(db, 'klv/fields', { types: 'continuity-error' })).details?.parameter).to.equal('types');
      expect(datasetErrorOf(() => readDataset(db, 'mpegts/errors', { tableType: 'PAT' })).details?.parameter).to.equal('tableType');
    });
  });
});
