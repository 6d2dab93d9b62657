import { expect } from 'chai';
import { join } from 'node:path';
import type { Migration } from '../../src/store/schema-migrations.js';
import { DatabaseCache } from '../../src/store/database-cache.js';
import type { DatabaseFile } from '../../src/store/database-file.js';
import { openIdDatabase } from '../../src/store/id-database-file.js';
import { useTemporaryFolder } from './temporary-folder.js';

const NOTES: readonly Migration[] = [{ version: 1, name: 'notes', up: (db) => db.run('CREATE TABLE notes (text TEXT)') }];

describe('DatabaseCache', () => {
  const folder = useTemporaryFolder('klvscope-runs-');
  /** Databases of the folder by id, as the store keeps its live sessions'. */
  type Options = { create?: boolean; migrations?: readonly Migration[] };
  const runsIn = (maxOpen?: number) =>
    new DatabaseCache<Options>((id, options) => openIdDatabase(join(folder.path, `${id}.sqlite`), `test ${id}`, options?.migrations ?? NOTES, options?.create ?? false), maxOpen);

  it('shares one open database between leases, so what one writes the next sees without a save', async () => {
    const cache = runsIn();
    const writer = await cache.lease('run-1', { create: true, migrations: NOTES });
    writer.database.db.run("INSERT INTO notes VALUES ('unsaved')");
    writer.release();
    const reader = await cache.lease('run-1', { migrations: NOTES });
    expect(reader.database).to.equal(writer.database);
    expect(reader.database.db.exec('SELECT text FROM notes')[0].values).to.deep.equal([['unsaved']]);
    reader.release();
    await cache.closeAll();
  });

  it('closes the least recently used runs beyond its limit, but never a leased one', async () => {
    const cache = runsIn(2);
    const a = await cache.lease('run-a', { create: true, migrations: NOTES });
    const b = await cache.lease('run-b', { create: true, migrations: NOTES });
    b.release();
    const c = await cache.lease('run-c', { create: true, migrations: NOTES });
    c.release();
    expect(cache.size, 'b, unleased and least recent, went').to.equal(2);
    expect(b.database.isOpen).to.equal(false);
    expect(a.database.isOpen, 'a is still leased').to.equal(true);
    a.release();
    await cache.closeAll();
    expect(a.database.isOpen).to.equal(false);
  });

  it('lets exclusive leases of a run take turns, while plain ones need not wait', async () => {
    const cache = runsIn();
    const first = await cache.lease('run-w', { create: true, migrations: NOTES, exclusive: true });
    let secondGranted = false;
    const second = cache.lease('run-w', { migrations: NOTES, exclusive: true }).then((lease) => {
      secondGranted = true;
      return lease;
    });
    const reader = await cache.lease('run-w', { migrations: NOTES });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(secondGranted, 'the second writer waits for the first').to.equal(false);
    first.release();
    (await second).release();
    expect(secondGranted).to.equal(true);
    reader.release();
    await cache.closeAll();
  });

  it('forgets a run that failed to open, so a later lease tries again', async () => {
    const cache = runsIn();
    const error = await cache.lease('missing', { migrations: NOTES }).catch((e: unknown) => e);
    expect(error).to.have.property('code', 'ERR_STORE_NOT_FOUND');
    expect(cache.size).to.equal(0);
    const created = await cache.lease('missing', { create: true, migrations: NOTES });
    expect(created.database.path).to.equal(join(folder.path, 'missing.sqlite'));
    created.release();
    await cache.closeAll();
  });

  it('gives a read lease back even when the read throws, so the database can be closed beyond the limit', async () => {
    const cache = runsIn(1);
    (await cache.lease('run-r', { create: true, migrations: NOTES })).release();
    let read: DatabaseFile | null = null;
    const error = await cache
      .read('run-r', (database) => {
        read = database;
        throw new Error('the reader failed');
      })
      .catch((e: unknown) => e);
    expect(error).to.have.property('message', 'the reader failed');
    (await cache.lease('run-s', { create: true, migrations: NOTES })).release();
    expect(cache.size).to.equal(1);
    expect(read).to.have.property('isOpen', false);
    await cache.closeAll();
  });
});
