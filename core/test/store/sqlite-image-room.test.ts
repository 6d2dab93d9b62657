import { expect } from 'chai';
import { loadSqlEngine } from '../../src/store/sql-engine.js';
import { openOnRoom, releaseRoom, withRoomToGrow } from '../../src/store/sqlite-image-room.js';

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
    const db = openOnRoom(room, (bytes) => new SQL.Database(bytes));
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
    const firstBytes = writeRows(() => openOnRoom(first, (bytes) => new SQL.Database(bytes)), 3000);
    releaseRoom(first);
    const second = withRoomToGrow(image, capacity);
    expect(second, 'the room given back').to.equal(first);
    // What the first database left past the image is zeroed.
    expect(second.subarray(image.length).every((byte) => byte === 0)).to.be.true;
    const secondBytes = writeRows(() => openOnRoom(second, (bytes) => new SQL.Database(bytes)), 3000);
    releaseRoom(second);
    expect(Buffer.from(firstBytes).equals(Buffer.from(fresh)), 'first room = fresh').to.be.true;
    expect(Buffer.from(secondBytes).equals(Buffer.from(fresh)), 'room used again = fresh').to.be.true;
  });

  it('returns the image itself when it is as large as the room asked for', () => {
    const image = new Uint8Array(4096).fill(7);
    expect(withRoomToGrow(image, 4096)).to.equal(image);
  });
});
