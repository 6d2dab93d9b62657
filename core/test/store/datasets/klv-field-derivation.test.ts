/**
 * klv/fields rows read from a run database: the fields its packets keep as
 * items, made again, merged in seq order with the fields stored as rows of
 * their own.
 */
import { expect } from 'chai';
import type { Observation } from '../../../src/kernel/observations.js';
import { exportDataset } from '../../../src/store/datasets/dataset-export.js';
import { MAX_DATASET_LIMIT, readDataset } from '../../../src/store/datasets/dataset-query.js';
import { klvFieldRows } from '../../../src/store/datasets/klv-field-derivation.js';
import type { DatasetRow } from '../../../src/store/datasets/observation-row-codec.js';
import { createObservationWriter } from '../../../src/store/datasets/observation-writer.js';
import { GENERATED_CASES, generatedObservations } from './generated-observations.js';
import { useRunDatabase } from './run-database-in-memory.js';

/** The klv/fields rows of observations written from seq 1: each field's fields, without `kind`, with its seq. */
function fieldRows(observations: readonly Observation[]): DatasetRow[] {
  return observations.flatMap((o, i) => {
    if (o.kind !== 'klv-field') return [];
    const { offset, packetIndex, t, pid, klvIndex, tag, name, rawHex, value, units } = o;
    return [{ seq: i + 1, offset, packetIndex, t, pid, klvIndex, tag, name, rawHex, value, units }];
  });
}

describe('klv/fields rows read back from packets and rows', function () {
  this.timeout(30_000);
  const run = useRunDatabase();
  let observations: Observation[];
  before(() => {
    observations = generatedObservations(GENERATED_CASES[0].options).observations;
  });

  /** The observations with some fields that are not their packet's next item: the first field of a few packets changed, one field after the last packet. */
  function withStoredFields(): Observation[] {
    const changed = observations.map((o, i) => {
      const first = o.kind === 'klv-field' && observations[i - 1].kind === 'metadata-packet';
      return first && i % 5 === 0 ? { ...o, value: 'not the item' } : o;
    });
    const last = changed.findLast((o) => o.kind === 'klv-field') as Observation;
    return [...changed, { ...last, tag: 1, value: 'after every packet' } as Observation];
  }

  function store(list: readonly Observation[]): void {
    const writer = createObservationWriter(run.db);
    list.forEach(writer.write);
    writer.finish();
  }

  it('gives the fields kept as items and those stored as rows in seq order, as they were emitted', () => {
    const list = withStoredFields();
    store(list);
    expect(run.db.exec('SELECT count(*) FROM klv_field')[0].values[0][0]).to.be.greaterThan(3);
    const expected = fieldRows(list);
    expect(readDataset(run.db, 'klv/fields', { limit: MAX_DATASET_LIMIT }).rows).to.deep.equal(expected);
    const ndjson = Buffer.concat([...exportDataset(run.db, 'klv/fields', 'ndjson')]).toString('utf8');
    expect(ndjson).to.equal(expected.map((row) => `${JSON.stringify(row)}\n`).join(''));
  });

  it('starts after a cursor inside a packet\'s fields, and pages through them by cursor and by offset', () => {
    const list = withStoredFields();
    store(list);
    const expected = fieldRows(list);
    for (const limit of [1, 7, 100]) {
      const byCursor: DatasetRow[] = [];
      for (let cursor: string | undefined; ; ) {
        const page = readDataset(run.db, 'klv/fields', { limit, cursor });
        byCursor.push(...page.rows);
        if (page.nextCursor === null) break;
        cursor = page.nextCursor;
      }
      expect(byCursor, `limit ${limit}`).to.deep.equal(expected);
    }
    expect(readDataset(run.db, 'klv/fields', { limit: 50, offset: 33 }).rows).to.deep.equal(expected.slice(33, 83));
  });

  it('ends for good after its last row, and frees its statements when stopped early', () => {
    store(withStoredFields());
    const rows = klvFieldRows(run.db, null);
    let count = 0;
    for (let step = rows.next(); step.done !== true; step = rows.next()) count++;
    expect(count).to.equal(fieldRows(withStoredFields()).length);
    expect(rows.next().done).to.equal(true);
    for (const row of klvFieldRows(run.db, 10)) {
      expect(row).to.not.equal(null);
      break;
    }
    // SQLite refuses to drop a table that a live statement still reads.
    expect(() => run.db.run('DROP TABLE klv_field')).to.not.throw();
  });
});
