import { expect } from 'chai';
import { OBSERVATION_KINDS } from '../../../src/kernel/observation-kinds.js';
import { RAW_DATASET_MIGRATIONS } from '../../../src/store/datasets/dataset-schema.js';
import { OBSERVATION_TABLES } from '../../../src/store/datasets/observation-columns.js';
import { schemaVersionOf, type Migration } from '../../../src/store/schema-migrations.js';
import { countByKind, GENERATED_CASES, generatedObservations } from './generated-observations.js';
import { useRunDatabase } from './run-database-in-memory.js';

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

describe('raw dataset schema', () => {
  const run = useRunDatabase();

  it('is a migration list the store applies, taking a new run database to version 5', () => {
    const migrations: readonly Migration[] = RAW_DATASET_MIGRATIONS;
    expect(migrations.map((m) => m.version)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(schemaVersionOf(run.db)).to.equal(5);
  });

  it('creates one table per observation kind, named after the kind, the metadata packets\' field counts and the observation blocks', () => {
    const tables = run.db.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")[0].values.map(([name]) => name);
    expect(tables).to.have.members([...OBSERVATION_KINDS.map((kind) => kind.replaceAll('-', '_')), 'metadata_fields', 'observation_block']);
    expect([...OBSERVATION_KINDS.map((kind) => OBSERVATION_TABLES[kind].table), 'metadata_fields', 'observation_block']).to.have.members(tables);
  });

  for (const kind of OBSERVATION_KINDS) {
    it(`gives the ${kind} table seq as its primary key, then the columns of its layout in order, NOT NULL where the field cannot be null nor be made again from other rows`, () => {
      const layout = OBSERVATION_TABLES[kind];
      const info = run.db.exec(`PRAGMA table_info(${layout.table})`)[0];
      const columns = info.values.map((row) => Object.fromEntries(info.columns.map((name, i) => [name, row[i]])) as unknown as ColumnInfo);
      expect(columns.map((c) => c.name)).to.deep.equal(['seq', ...layout.columns.map((c) => c.column)]);
      expect(columns.filter((c) => c.pk === 1).map((c) => [c.name, c.type])).to.deep.equal([['seq', 'INTEGER']]);
      const notNull = columns.slice(1).map((c) => c.notnull === 1);
      expect(notNull).to.deep.equal(layout.columns.map((c) => !c.nullable && !c.optional && !c.derivable));
    });
  }

  it('has a column for every property the engine sets on each kind of observation', () => {
    const { observations } = generatedObservations(GENERATED_CASES[0].options);
    expect(Object.keys(countByKind(observations))).to.have.length(OBSERVATION_KINDS.length);
    for (const o of observations) {
      const properties = OBSERVATION_TABLES[o.kind].columns.map((c) => c.property);
      expect(['kind', ...properties], o.kind).to.include.members(Object.keys(o));
    }
  });
});
