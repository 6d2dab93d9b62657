import { expect } from 'chai';
import { loadSqlEngine } from '../../src/store/sql-engine.js';
import { exportedFileInRoom, openOnRoom, releaseRoom, withRoomToGrow } from '../../src/store/sqlite-image-room.js';

/** The bytes of a database `open` gives after the same rows. */
function writeRows(open: () => import('sql.js').Database, rows: number): Uint8Array {
  const db = open();
  db.run('CREATE TABLE notes (text TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO notes VALUES (?)');
  db.run('BEGIN');
  for (let index = 0; index < rows; index++) insert.run([`note ${index} ${'y'.repeat(index % 200)}`]);
  db.run('COMMIT');
  insert.free();
  const bytes = db.export();
  db.close();
  return bytes;
}

describe('sqlite-image-room', () => {
  it('hands sql.js the room itself, so the pages SQLite adds land in it, and the array is an ordinary one afterwards', async () => {
    const SQL = await loadSqlEngine();
    const empty = new SQL.Database();
    const image = empty.export();
    empty.close();
    const room = withRoomToGrow(image, 1024 * 1024);
    expect(room.byteLength).to.equal(1024 * 1024);
    const { opened: db, handedOver } = openOnRoom(room, (bytes) => new SQL.Database(bytes));
    expect(handedOver).to.be.true;
    expect(Object.hasOwn(room, 'slice'), 'the slice handing the room over is gone').to.be.false;
    expect(room.slice(0, room.length)).to.not.equal(room);
    db.run('CREATE TABLE notes (text TEXT NOT NULL)');
    db.run("INSERT INTO notes VALUES ('in the room')");
    // The second page (the table's) is written into the room: sql.js did not copy it.
    const pageSize = Number(db.exec('PRAGMA page_size')[0].values[0][0]);
    const secondPage = Buffer.from(room.subarray(pageSize, 2 * pageSize));
    expect(secondPage.includes(Buffer.from('in the room')), 'the row in the room').to.be.true;
    db.close();
    releaseRoom(room);
  });

  it('gives a closed database\'s room to the next, zeroed, and the next writes the same bytes as in a fresh array', async () => {
    const SQL = await loadSqlEngine();
    const empty = new SQL.Database();
    const image = empty.export();
    empty.close();
    const capacity = 512 * 1024 + 8; // a size no other test's room has
    const freshFile = new Uint8Array(capacity);
    freshFile.set(image);
    const fresh = writeRows(() => new SQL.Database(freshFile), 3000);

    const first = withRoomToGrow(image, capacity);
    const firstBytes = writeRows(() => openOnRoom(first, (bytes) => new SQL.Database(bytes)).opened, 3000);
    releaseRoom(first);
    const second = withRoomToGrow(image, capacity);
    expect(second, 'the room given back').to.equal(first);
    // What the first database left past the image is zeroed.
    expect(second.subarray(image.length).every((byte) => byte === 0)).to.be.true;
    const secondBytes = writeRows(() => openOnRoom(second, (bytes) => new SQL.Database(bytes)).opened, 3000);
    releaseRoom(second);
    expect(Buffer.from(firstBytes).equals(Buffer.from(fresh)), 'first room = fresh').to.be.true;
    expect(Buffer.from(secondBytes).equals(Buffer.from(fresh)), 'room used again = fresh').to.be.true;
  });

  it('gives the file in the room as export() gives it, after transactions, a schema change and a part\'s pragmas', async () => {
    const SQL = await loadSqlEngine();
    const migrated = new SQL.Database();
    migrated.run('CREATE TABLE a (x INTEGER PRIMARY KEY, t TEXT)');
    migrated.run('CREATE TABLE b (y BLOB NOT NULL)');
    migrated.run('PRAGMA user_version = 3');
    const image = migrated.export();
    migrated.close();
    for (const schemaChange of [false, true]) {
      const room = withRoomToGrow(image, 4 * 1024 * 1024);
      const { opened: db } = openOnRoom(room, (bytes) => new SQL.Database(bytes));
      db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE');
      if (schemaChange) db.run('CREATE INDEX at ON a (t)');
      const insertA = db.prepare('INSERT INTO a VALUES (?, ?)');
      const insertB = db.prepare('INSERT INTO b VALUES (?)');
      for (let transaction = 0; transaction < 4; transaction++) {
        db.run('BEGIN');
        for (let index = 0; index < 2000; index++) {
          insertA.run([transaction * 2000 + index, 'z'.repeat(index % 90)]);
          if (index % 400 === 0) insertB.run([new Uint8Array(9000).fill(index & 255)]);
        }
        db.run('COMMIT');
      }
      insertA.free();
      insertB.free();
      const exported = db.export();
      const byteSize = Number(db.exec('SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()')[0].values[0][0]);
      const inRoom = exportedFileInRoom(room, byteSize);
      db.close();
      releaseRoom(room);
      expect(exported.byteLength).to.be.greaterThan(500_000);
      expect(Buffer.from(inRoom).equals(Buffer.from(exported)), `the file in the room, schema change ${schemaChange}`).to.be.true;
    }
  });

  it('refuses a database larger than its room', () => {
    expect(() => exportedFileInRoom(new Uint8Array(8192), 12_288)).to.throw(RangeError);
  });

  it('returns the image itself when it is as large as the room asked for', () => {
    const image = new Uint8Array(4096).fill(7);
    expect(withRoomToGrow(image, 4096)).to.equal(image);
  });
});
