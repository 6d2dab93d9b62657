/**
 * A run stored in many parts reads back exactly as one database holding the
 * same observations: the replay, every dataset paged by cursor and by
 * offset, its filters and totals, its exports, and after a reopen from disk;
 * for generated streams with faults and for the real recordings.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { Database } from 'sql.js';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import type { Observation } from '../../src/kernel/observations.js';
import { exportDataset } from '../../src/store/datasets/dataset-export.js';
import type { DatasetParts } from '../../src/store/datasets/dataset-parts.js';
import { readDataset, TS_ERROR_TYPES, type DatasetQueryOptions } from '../../src/store/datasets/dataset-query.js';
import type { DatasetRow } from '../../src/store/datasets/observation-row-codec.js';
import { createObservationWriter } from '../../src/store/datasets/observation-writer.js';
import { RAW_DATASET_NAMES } from '../../src/store/datasets/raw-datasets.js';
import { createRunObservationWriter } from '../../src/store/run-observation-writer.js';
import { StoredRun } from '../../src/store/stored-run.js';
import { demuxObservations, GENERATED_CASES, generatedObservations } from './datasets/generated-observations.js';
import { runDatabaseInMemory } from './datasets/run-database-in-memory.js';
import { useTemporaryFolder } from './temporary-folder.js';

/** Every page of a dataset by cursor: the rows, and each page's total and whether a cursor followed. */
function pagesByCursor(source: Database | DatasetParts, name: string, limit: number, options: DatasetQueryOptions = {}): { rows: DatasetRow[]; totals: number[]; pages: number } {
  const rows: DatasetRow[] = [];
  const totals: number[] = [];
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = readDataset(source, name, { ...options, limit, cursor });
    rows.push(...page.rows);
    totals.push(page.total);
    if (page.nextCursor === null) return { rows, totals, pages };
    cursor = page.nextCursor;
  }
}

/** The filters each dataset takes, with the values worth trying. */
const FILTERS: ReadonlyArray<readonly [string, DatasetQueryOptions]> = [
  ['mpegts/table-positions', { tableType: 'PAT' }],
  ['mpegts/table-positions', { tableType: 'PMT' }],
  ['mpegts/errors', { types: 'continuity-error' }],
  ['mpegts/errors', { types: [...TS_ERROR_TYPES] }],
  ['mpegts/errors', { types: 'transport-error,sync-byte-error' }],
];

describe('a run stored in parts', function () {
  this.timeout(120_000);
  const folder = useTemporaryFolder('klvscope-parts-');

  /** Stored as a run whose parts hold `rowsPerPart` rows each (the smallest part size ends a part at every transaction). */
  async function storedInParts(observations: readonly Observation[], rowsPerPart: number): Promise<StoredRun> {
    const run = await StoredRun.open(folder.path, 'run-1', { create: true, partBytes: 1 });
    const writer = createRunObservationWriter(run, { rowsPerTransaction: rowsPerPart });
    for (const observation of observations) writer.write(observation);
    await writer.finish();
    return run;
  }

  async function inOneDatabase(observations: readonly Observation[]): Promise<Database> {
    const db = await runDatabaseInMemory();
    const writer = createObservationWriter(db);
    for (const observation of observations) writer.write(observation);
    writer.finish();
    return db;
  }

  /** Everything a client can read, from the run and from one database, compared. */
  function expectSameDatasets(run: StoredRun, db: Database): void {
    for (const name of RAW_DATASET_NAMES) {
      const whole = readDataset(db, name, { limit: 100_000 });
      expect(whole.nextCursor, name).to.equal(null);
      for (const limit of [1, 37, 1000]) {
        const paged = pagesByCursor(run, name, limit);
        expect(paged.rows, `${name} by cursor, ${limit} a page`).to.deep.equal(whole.rows);
        expect(new Set(paged.totals), name).to.deep.equal(new Set([whole.total]));
        expect(paged.pages, name).to.equal(Math.max(1, Math.ceil(whole.total / limit)));
      }
      for (const offset of [0, 1, 99, 100, 101, Math.floor(whole.total / 2), whole.total - 1, whole.total, whole.total + 5].filter((n) => n >= 0)) {
        for (const limit of [1, 100, 333]) {
          expect(readDataset(run, name, { offset, limit }), `${name} offset ${offset} limit ${limit}`).to.deep.equal(readDataset(db, name, { offset, limit }));
        }
      }
      for (const format of ['json', 'ndjson', 'csv']) {
        expect([...exportDataset(run, name, format)].join(''), `${name} as ${format}`).to.equal([...exportDataset(db, name, format)].join(''));
      }
      const half = readDataset(db, name, { limit: Math.max(1, Math.floor(whole.total / 2)) });
      if (half.nextCursor !== null) {
        expect([...exportDataset(run, name, 'ndjson', { cursor: half.nextCursor })].join('')).to.equal([...exportDataset(db, name, 'ndjson', { cursor: half.nextCursor })].join(''));
      }
    }
    for (const [name, filter] of FILTERS) {
      const whole = readDataset(db, name, { ...filter, limit: 100_000 });
      expect(pagesByCursor(run, name, 3, filter).rows, `${name} ${JSON.stringify(filter)}`).to.deep.equal(whole.rows);
      expect(readDataset(run, name, { ...filter, limit: 5, offset: 2 })).to.deep.equal(readDataset(db, name, { ...filter, limit: 5, offset: 2 }));
    }
  }

  for (const generated of GENERATED_CASES) {
    it(`reads back ${generated.name} exactly as one database does, across parts of 500 rows`, async () => {
      const { observations } = generatedObservations(generated.options);
      const run = await storedInParts(observations, 500);
      const db = await inOneDatabase(observations);
      try {
        expect(run.parts.length).to.equal(Math.ceil(observations.length / 500));
        expect([...run.replay()]).to.deep.equal(observations);
        expectSameDatasets(run, db);
      } finally {
        await run.close();
        db.close();
      }
    });
  }

  it('reads the same after a reopen from disk: the index lists every part, each part a file', async () => {
    const { observations } = generatedObservations(GENERATED_CASES[0].options);
    const written = await storedInParts(observations, 250);
    const counts = written.counts;
    await written.close();
    const names = (await readdir(written.folder)).sort();
    expect(names[names.length - 1]).to.equal('run.sqlite');
    expect(names.filter((name) => name.startsWith('observations-'))).to.have.length(Math.ceil(observations.length / 250));
    const run = await StoredRun.open(folder.path, 'run-1');
    const db = await inOneDatabase(observations);
    try {
      expect(run.counts).to.deep.equal(counts);
      expect([...run.replay()]).to.deep.equal(observations);
      expectSameDatasets(run, db);
    } finally {
      await run.close();
      db.close();
    }
  });

  const realFixtures = ['kwiver_h264_klv.ts', 'kwiver_h265_tricky_klv.ts', 'kwiver_aphill_klv_10s.ts', 'osh-addons_sample-stream.ts'];
  for (const file of realFixtures) {
    it(`reads back the real recording ${file} exactly as one database does, across parts`, async function () {
      const observations = demuxObservations(readFileSync(fixtureOrSkip(this, 'real', file)));
      const run = await storedInParts(observations, 2000);
      const db = await inOneDatabase(observations);
      try {
        expect(run.parts.length).to.be.greaterThan(1);
        expect([...run.replay()]).to.deep.equal(observations);
        expectSameDatasets(run, db);
      } finally {
        await run.close();
        db.close();
      }
    });
  }
});
