import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Migration } from '../../src/store/schema-migrations.js';
import { DatabaseFile } from '../../src/store/database-file.js';
import { loadSqlEngine } from '../../src/store/sql-engine.js';
import { StoreError } from '../../src/store/store-error.js';
import { SAVE_LOOP_MIGRATIONS } from './children/save-loop-schema.js';
import { startChild } from './node-child.js';
import { useTemporaryFolder } from './temporary-folder.js';

const NOTES: readonly Migration[] = [{ version: 1, name: 'notes', up: (db) => db.run('CREATE TABLE notes (text TEXT NOT NULL)') }];

function notesOf(file: DatabaseFile): string[] {
  return (file.db.exec('SELECT text FROM notes ORDER BY rowid')[0]?.values ?? []).map(([text]) => String(text));
}

/** A pid that is certainly dead: a child's that has exited and been reaped. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

describe('DatabaseFile', () => {
  const folder = useTemporaryFolder('klvscope-dbfile-');

  it('starts an empty migrated database when the file is missing, and writes it only on save', async () => {
    const path = join(folder.path, 'new.sqlite');
    const file = await DatabaseFile.open(path, { label: 'notes', migrations: NOTES });
    expect(file.existed).to.be.false;
    expect(file.schemaVersion).to.equal(1);
    expect(existsSync(path)).to.be.false;
    await file.save();
    expect(existsSync(path)).to.be.true;
    await file.close();
  });

  it('reopens what was saved', async () => {
    const path = join(folder.path, 'notes.sqlite');
    const first = await DatabaseFile.open(path, { label: 'notes', migrations: NOTES });
    first.db.run("INSERT INTO notes VALUES ('kept')");
    await first.save();
    await first.close();
    const second = await DatabaseFile.open(path, { label: 'notes', migrations: NOTES });
    expect(second.existed).to.be.true;
    expect(second.migration).to.deep.equal({ from: 1, to: 1 });
    expect(notesOf(second)).to.deep.equal(['kept']);
    await second.close();
  });

  it('saves when asked to save if changed only after a change, a new file or a migration', async () => {
    const path = join(folder.path, 'changes.sqlite');
    const created = await DatabaseFile.open(path, { label: 'notes', migrations: NOTES });
    expect(created.hasChanges, 'a new database is not on disk yet').to.be.true;
    await created.saveIfChanged();
    expect(existsSync(path)).to.be.true;
    expect(created.hasChanges).to.be.false;
    await created.close();
    const reopened = await DatabaseFile.open(path, { label: 'notes', migrations: NOTES });
    expect(reopened.hasChanges).to.be.false;
    const before = (await stat(path)).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await reopened.saveIfChanged();
    expect((await stat(path)).mtimeMs, 'nothing changed: nothing written').to.equal(before);
    reopened.db.run("INSERT INTO notes VALUES ('one')");
    expect(reopened.hasChanges).to.be.true;
    await reopened.saveIfChanged();
    expect(reopened.hasChanges).to.be.false;
    reopened.db.run("UPDATE notes SET text = 'two'");
    expect(reopened.hasChanges, 'counted again after the save').to.be.true;
    await reopened.saveIfChanged();
    await reopened.close();
    const migrated = await DatabaseFile.open(path, { label: 'notes', migrations: [...NOTES, { version: 2, name: 'tags', up: (db) => db.run('CREATE TABLE tags (tag TEXT)') }] });
    expect(migrated.hasChanges, 'a migration is a change').to.be.true;
    expect(notesOf(migrated)).to.deep.equal(['two']);
    await migrated.close();
  });

  it('writes the same file with room to grow made at once as without, room outgrown or not, and a page count of its own pages', async () => {
    await loadSqlEngine();
    const notes = Array.from({ length: 4000 }, (_, index) => `note ${index} ${'x'.repeat(index % 300)}`);
    const write = async (name: string, capacityBytes?: number, saveAndClose = false): Promise<{ bytes: Buffer; byteSize: number }> => {
      const file = DatabaseFile.startNew(join(folder.path, name), { label: 'notes', migrations: NOTES, capacityBytes });
      const insert = file.db.prepare('INSERT INTO notes VALUES (?)');
      for (const [index, note] of notes.entries()) {
        if (index % 500 === 0) file.db.run(index === 0 ? 'BEGIN' : 'COMMIT; BEGIN');
        insert.run([note]);
      }
      file.db.run('COMMIT');
      insert.free();
      const byteSize = file.byteSize;
      if (saveAndClose) await file.saveAndClose();
      else {
        await file.save();
        await file.close();
      }
      return { bytes: await readFile(join(folder.path, name)), byteSize };
    };
    const grown = await write('grown.sqlite');
    expect(grown.bytes.byteLength).to.be.greaterThan(500_000);
    // The third takes the room of the first, closed (sqlite-image-room.ts); saveAndClose() saves from the room
    // itself when the database is in it (the last), through export() when it has outgrown it (the 256 KiB).
    const cases: [number, boolean][] = [
      [4 * 1024 * 1024, false],
      [256 * 1024, true],
      [4 * 1024 * 1024, false],
      [4 * 1024 * 1024, true],
    ];
    for (const [index, [capacityBytes, saveAndClose]] of cases.entries()) {
      const roomy = await write(`room-${index}-${capacityBytes}.sqlite`, capacityBytes, saveAndClose);
      expect(roomy.byteSize, `page count, room ${capacityBytes}`).to.equal(grown.byteSize);
      expect(roomy.bytes.equals(grown.bytes), `file bytes, room ${capacityBytes} (${index})`).to.be.true;
    }
    const reopened = await DatabaseFile.open(join(folder.path, `room-3-${4 * 1024 * 1024}.sqlite`), { label: 'notes', migrations: NOTES });
    expect(notesOf(reopened)).to.deep.equal(notes);
    await reopened.close();
  });

  it('saves the state at the moment save() is called, in call order', async () => {
    const path = join(folder.path, 'order.sqlite');
    const file = await DatabaseFile.open(path, { label: 'notes', migrations: NOTES });
    file.db.run("INSERT INTO notes VALUES ('one')");
    const firstSave = file.save();
    file.db.run("INSERT INTO notes VALUES ('two')");
    const secondSave = file.save();
    file.db.run("INSERT INTO notes VALUES ('three')");
    await Promise.all([firstSave, secondSave]);
    await file.close();
    const reopened = await DatabaseFile.open(path, { label: 'notes', migrations: NOTES });
    expect(notesOf(reopened)).to.deep.equal(['one', 'two']);
    await reopened.close();
  });

  it('leaves no temporary file beside the database after a save', async () => {
    const file = await DatabaseFile.open(join(folder.path, 'clean.sqlite'), { label: 'notes', migrations: NOTES });
    await file.save();
    await file.save();
    await file.close();
    expect(await readdir(folder.path)).to.deep.equal(['clean.sqlite']);
  });

  it('removes the temporary files of a dead writer at open, and keeps those of a live one', async () => {
    const path = join(folder.path, 'catalog.sqlite');
    const orphan = `catalog.sqlite.tmp-${deadPid()}-3`;
    const live = `catalog.sqlite.tmp-${process.pid}-999999`;
    await writeFile(join(folder.path, orphan), 'half a database');
    await writeFile(join(folder.path, live), 'being written');
    const file = await DatabaseFile.open(path, { label: 'notes', migrations: NOTES });
    await file.close();
    expect(await readdir(folder.path)).to.deep.equal([live]);
  });

  it('goes back to a snapshot after a change and a save, keeps unsaved changes unsaved, and says when nothing changed', async () => {
    const path = join(folder.path, 'snapshot.sqlite');
    const file = await DatabaseFile.open(path, { label: 'notes', migrations: NOTES });
    file.db.run("INSERT INTO notes VALUES ('saved')");
    await file.save();
    file.db.run("INSERT INTO notes VALUES ('unsaved before the snapshot')");
    const snapshot = file.snapshot();
    // The snapshot's export restarts SQLite's count of changes: what was unsaved is still to be saved.
    expect(file.hasChanges).to.equal(true);
    expect(file.restore(snapshot), 'nothing changed since').to.equal(false);

    file.db.run("INSERT INTO notes VALUES ('undone')");
    await file.save();
    expect(file.restore(snapshot)).to.equal(true);
    expect(notesOf(file)).to.deep.equal(['saved', 'unsaved before the snapshot']);
    // The disk holds the undone change until the next save, which writes the database as restored.
    expect(file.hasChanges).to.equal(true);
    await file.saveIfChanged();
    await file.close();
    const reopened = await DatabaseFile.open(path, { label: 'notes', migrations: NOTES });
    expect(notesOf(reopened)).to.deep.equal(['saved', 'unsaved before the snapshot']);
    await reopened.close();
  });

  it('refuses a missing file when asked not to create one', async () => {
    const path = join(folder.path, 'absent.sqlite');
    const error = await DatabaseFile.open(path, { label: 'ingest run r1', migrations: [], create: false }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(StoreError).with.property('code', 'ERR_STORE_NOT_FOUND');
    expect((error as StoreError).message).to.equal(`ingest run r1 database not found at ${path}`);
  });

  it('refuses a file that is not an SQLite database, naming it', async () => {
    const path = join(folder.path, 'garbage.sqlite');
    await writeFile(path, 'this is a transport stream, not a database'.repeat(10));
    const error = await DatabaseFile.open(path, { label: 'catalog', migrations: NOTES }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(StoreError).with.property('code', 'ERR_STORE_CORRUPT');
    expect((error as StoreError).message).to.contain(`catalog at ${path} is not a readable SQLite database`);
  });

  it('refuses to be used after close', async () => {
    const file = await DatabaseFile.open(join(folder.path, 'closed.sqlite'), { label: 'notes', migrations: NOTES });
    await file.close();
    expect(file.isOpen).to.be.false;
    expect(() => file.db).to.throw(StoreError).with.property('code', 'ERR_STORE_CLOSED');
    expect(() => file.save()).to.throw(StoreError, 'notes at');
  });

  it('keeps a complete earlier state on disk when its writer is killed (SIGKILL) in the middle of saving', async function () {
    this.timeout(90_000);
    const path = join(folder.path, 'killed.sqlite');
    const SQL = await loadSqlEngine();
    let lastConfirmed = 0;
    let killsDuringSave = 0;
    for (let round = 0; round < 6; round += 1) {
      const child = startChild('save-loop.ts', [path]);
      // Let a few saves land, then kill while the next one is being written.
      for (let saved = 0; saved < 3; ) {
        const [event, n] = (await child.nextLine()).split(' ');
        if (event === 'saved') [saved, lastConfirmed] = [saved + 1, Number(n)];
      }
      await child.nextLine(); // 'saving n+1'
      await new Promise((done) => setTimeout(done, round % 3));
      await child.kill();
      if ((await readdir(folder.path)).some((name) => name.startsWith('killed.sqlite.tmp-'))) killsDuringSave += 1;

      const db = new SQL.Database(await readFile(path));
      expect(db.exec('PRAGMA integrity_check')[0].values).to.deep.equal([['ok']]);
      const [n, filler] = db.exec('SELECT n, filler FROM counter')[0].values[0] as [number, Uint8Array];
      const log = db.exec('SELECT count(*), min(n), max(n) FROM log')[0].values[0];
      db.close();
      // Every save the child confirmed is on disk; the state is one whole save, not a mix of two.
      expect(n).to.be.at.least(lastConfirmed);
      expect(log).to.deep.equal([n, 1, n]);
      expect(filler.length).to.equal(4 * 1024 * 1024);
      expect(filler.every((byte) => byte === n % 256)).to.be.true;
    }
    // Proves the kills landed mid-save (a temporary file was on disk) at least once.
    expect(killsDuringSave).to.be.greaterThan(0);
    const reopened = await DatabaseFile.open(path, { label: 'killed', migrations: SAVE_LOOP_MIGRATIONS });
    await reopened.close();
    expect(await readdir(folder.path)).to.deep.equal(['killed.sqlite']);
  });
});
