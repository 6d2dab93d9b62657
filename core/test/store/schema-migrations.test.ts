import { expect } from 'chai';
import type { Database } from 'sql.js';
import { migrateDatabase, schemaVersionOf, type Migration } from '../../src/store/schema-migrations.js';
import { loadSqlEngine } from '../../src/store/sql-engine.js';
import { StoreError } from '../../src/store/store-error.js';

const CREATE_A: Migration = { version: 1, name: 'table a', up: (db) => db.run('CREATE TABLE a (x INTEGER)') };
const CREATE_B: Migration = { version: 2, name: 'table b', up: (db) => db.run('CREATE TABLE b (y TEXT)') };
const BROKEN: Migration = {
  version: 3,
  name: 'broken',
  up: (db) => {
    db.run('CREATE TABLE c (z TEXT)');
    db.run('INSERT INTO no_such_table VALUES (1)');
  },
};

function tablesOf(db: Database): string[] {
  return (db.exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")[0]?.values ?? []).map(([name]) => String(name));
}

describe('schema migrations', () => {
  let db: Database;
  beforeEach(async () => {
    db = new (await loadSqlEngine()).Database();
  });
  afterEach(() => db.close());

  it('applies the migrations in order and records the last version', () => {
    expect(migrateDatabase(db, [CREATE_A, CREATE_B], 'test db')).to.deep.equal({ from: 0, to: 2 });
    expect(schemaVersionOf(db)).to.equal(2);
    expect(tablesOf(db)).to.deep.equal(['a', 'b']);
  });

  it('applies only the migrations a database does not have yet', () => {
    migrateDatabase(db, [CREATE_A], 'test db');
    db.run('INSERT INTO a VALUES (7)');
    expect(migrateDatabase(db, [CREATE_A, CREATE_B], 'test db')).to.deep.equal({ from: 1, to: 2 });
    expect(db.exec('SELECT x FROM a')[0].values).to.deep.equal([[7]]);
    expect(migrateDatabase(db, [CREATE_A, CREATE_B], 'test db')).to.deep.equal({ from: 2, to: 2 });
  });

  it('rolls back every pending migration when one of them fails', () => {
    migrateDatabase(db, [CREATE_A], 'test db');
    const error = (() => {
      try {
        migrateDatabase(db, [CREATE_A, CREATE_B, BROKEN], 'catalog at /data/catalog.sqlite');
      } catch (e) {
        return e;
      }
    })();
    expect(error).to.be.instanceOf(StoreError).with.property('code', 'ERR_STORE_MIGRATION_FAILED');
    expect((error as StoreError).message).to.equal(
      'catalog at /data/catalog.sqlite could not be migrated from schema version 1 at migration 3 (broken): no such table: no_such_table',
    );
    expect(schemaVersionOf(db)).to.equal(1);
    expect(tablesOf(db)).to.deep.equal(['a']);
  });

  it('refuses a database newer than the code, naming both versions', () => {
    db.run('PRAGMA user_version = 5');
    expect(() => migrateDatabase(db, [CREATE_A, CREATE_B], 'catalog at /data/catalog.sqlite'))
      .to.throw(StoreError, 'catalog at /data/catalog.sqlite has schema version 5, newer than this klvscope knows (2); use a newer klvscope or another data folder')
      .with.property('code', 'ERR_STORE_SCHEMA_TOO_NEW');
    expect(tablesOf(db)).to.deep.equal([]);
  });

  it('refuses a migration list whose versions do not run 1, 2, 3 in order', () => {
    expect(() => migrateDatabase(db, [CREATE_B], 'test db')).to.throw("migration 'table b' has version 2; expected 1");
  });
});
