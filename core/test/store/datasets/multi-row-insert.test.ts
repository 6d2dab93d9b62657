import { expect } from 'chai';
import type { Database } from 'sql.js';
import { MultiRowInsert, multiRowInsertSql } from '../../../src/store/datasets/multi-row-insert.js';
import { loadSqlEngine } from '../../../src/store/sql-engine.js';

describe('multi-row insert', () => {
  let db: Database;
  beforeEach(async () => {
    db = new (await loadSqlEngine()).Database();
    db.run('CREATE TABLE t (seq INTEGER PRIMARY KEY, name TEXT, bytes BLOB)');
  });
  afterEach(() => db.close());

  const rows = (): unknown[][] => db.exec('SELECT seq, name, bytes FROM t ORDER BY seq')[0]?.values ?? [];
  const insertOf = (rowsPerStatement: number): MultiRowInsert =>
    new MultiRowInsert(db, (count) => multiRowInsertSql('t', 'seq, name, bytes', '(?, ?, ?)', count), 3, rowsPerStatement);
  /** Fills the next row in place, as the writer does. */
  const add = (insert: MultiRowInsert, seq: number): void => {
    const at = insert.nextRow();
    insert.values[at] = seq;
    insert.values[at + 1] = `row ${seq}`;
    insert.values[at + 2] = seq % 2 === 0 ? null : Uint8Array.of(seq, 0xff);
    insert.added();
  };
  const expected = (seqs: number[]): unknown[][] => seqs.map((seq) => [seq, `row ${seq}`, seq % 2 === 0 ? null : Uint8Array.of(seq, 0xff)]);

  it('writes the SQL of n rows', () => {
    expect(multiRowInsertSql('t', 'a, b', '(?, ?)', 3)).to.equal('INSERT INTO t (a, b) VALUES (?, ?), (?, ?), (?, ?)');
    expect(multiRowInsertSql('t', 'a', '(?)', 1)).to.equal('INSERT INTO t (a) VALUES (?)');
  });

  it('gathers rows until a statement is full, then inserts them with it, each row its own values', () => {
    const insert = insertOf(4);
    try {
      for (let seq = 1; seq <= 3; seq++) add(insert, seq);
      expect(rows(), 'three of four gathered').to.deep.equal([]);
      add(insert, 4);
      expect(rows()).to.deep.equal(expected([1, 2, 3, 4]));
      for (let seq = 5; seq <= 10; seq++) add(insert, seq);
      expect(rows()).to.deep.equal(expected([1, 2, 3, 4, 5, 6, 7, 8]));
      insert.flush();
      expect(rows(), 'the remainder of two, by flush()').to.deep.equal(expected([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
      insert.flush();
      expect(rows(), 'flushed once only').to.have.length(10);
    } finally {
      insert.free();
    }
  });

  it('forgets the gathered rows on drop(), uninserted, and goes on from an empty statement', () => {
    const insert = insertOf(4);
    try {
      for (let seq = 1; seq <= 3; seq++) add(insert, seq);
      insert.drop();
      insert.flush();
      expect(rows()).to.deep.equal([]);
      for (let seq = 11; seq <= 14; seq++) add(insert, seq);
      expect(rows()).to.deep.equal(expected([11, 12, 13, 14]));
    } finally {
      insert.free();
    }
  });

  it('inserts each row as it comes with one row per statement', () => {
    const insert = insertOf(1);
    try {
      add(insert, 1);
      expect(rows()).to.deep.equal(expected([1]));
    } finally {
      insert.free();
    }
  });
});
