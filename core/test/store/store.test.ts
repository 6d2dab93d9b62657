import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createIngestRun, finishIngestRun, getIngestRun, INTERRUPTED_RUN_ERROR, listIngestRuns, latestCompletedIngestRun } from '../../src/store/catalog-ingest-runs.js';
import { defaultDataDir } from '../../src/store/data-dir.js';
import { DatabaseFile } from '../../src/store/database-file.js';
import { Store } from '../../src/store/store.js';
import { StoreError } from '../../src/store/store-error.js';
import { startChild } from './node-child.js';
import { useTemporaryFolder } from './temporary-folder.js';

const HASH = 'a'.repeat(64);

describe('Store', () => {
  const folder = useTemporaryFolder('klvscope-store-');

  it('creates the data folder with its catalog and lock, and removes the lock on close', async () => {
    const dataDir = join(folder.path, 'nested', 'data');
    const store = await Store.open({ dataDir });
    expect(store.dataDir).to.equal(dataDir);
    expect((await readdir(dataDir)).sort()).to.deep.equal(['catalog.sqlite', 'klvscope.lock']);
    expect(store.catalog.schemaVersion).to.equal(1);
    expect(store.interruptedRunIds).to.deep.equal([]);
    await store.close();
    expect(await readdir(dataDir)).to.deep.equal(['catalog.sqlite']);
  });

  it('saves the catalog on close, so the next open finds the changes', async () => {
    const first = await Store.open({ dataDir: folder.path });
    const run = createIngestRun(first.catalog.db, { id: 'run-1', hash: HASH, path: '/rec/a.ts', startedMs: 10 });
    finishIngestRun(first.catalog.db, run.id, { status: 'completed', finishedMs: 20 });
    await first.close();
    const second = await Store.open({ dataDir: folder.path });
    expect(getIngestRun(second.catalog.db, 'run-1')).to.include({ status: 'completed', finishedMs: 20 });
    await second.close();
  });

  it('refuses a second open of the same data folder until the first is closed', async () => {
    const first = await Store.open({ dataDir: folder.path });
    const error = await Store.open({ dataDir: folder.path }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(StoreError).with.property('code', 'ERR_STORE_LOCKED');
    expect((error as StoreError).message).to.contain(`data folder ${folder.path} is in use by this process (pid ${process.pid})`);
    await first.close();
    await (await Store.open({ dataDir: folder.path })).close();
  });

  it('refuses a catalog written by a newer klvscope, and leaves the folder unlocked', async () => {
    const catalog = await DatabaseFile.open(join(folder.path, 'catalog.sqlite'), { label: 'catalog', migrations: [] });
    catalog.db.run('PRAGMA user_version = 99');
    await catalog.save();
    await catalog.close();
    const error = await Store.open({ dataDir: folder.path }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(StoreError).with.property('code', 'ERR_STORE_SCHEMA_TOO_NEW');
    expect((error as StoreError).message).to.contain(`catalog at ${join(folder.path, 'catalog.sqlite')} has schema version 99`);
    expect(await readdir(folder.path)).to.deep.equal(['catalog.sqlite']);
  });

  it('after a SIGKILL, marks the killed process\'s running ingest interrupted, keeps the completed one, and completes a new one', async () => {
    const holder = startChild('store-holder.ts', ['hold', folder.path]);
    const { completedId, runningId } = JSON.parse(await holder.nextLine()) as { completedId: string; runningId: string };
    await holder.kill();

    const store = await Store.open({ dataDir: folder.path });
    expect(store.interruptedRunIds).to.deep.equal([runningId]);
    expect(getIngestRun(store.catalog.db, runningId)).to.include({ status: 'interrupted', finishedMs: null, error: INTERRUPTED_RUN_ERROR });
    expect(getIngestRun(store.catalog.db, completedId)).to.deep.include({ status: 'completed', finishedMs: 2000, counts: { pcr: 5 } });
    const fresh = createIngestRun(store.catalog.db, { hash: HASH, path: '/recordings/done.ts', startedMs: 5000 });
    finishIngestRun(store.catalog.db, fresh.id, { status: 'completed', finishedMs: 6000, counts: { pcr: 7 } });
    await store.close();

    const reopened = await Store.open({ dataDir: folder.path });
    expect(reopened.interruptedRunIds).to.deep.equal([]);
    expect(listIngestRuns(reopened.catalog.db, HASH).map((run) => [run.id, run.status])).to.deep.equal([
      [fresh.id, 'completed'],
      [runningId, 'interrupted'],
      [completedId, 'completed'],
    ]);
    expect(latestCompletedIngestRun(reopened.catalog.db, HASH)?.id).to.equal(fresh.id);
    await reopened.close();
  });

  it('creates, reopens and deletes a run at <dataDir>/runs/<runId>/, its index written at once', async () => {
    const store = await Store.open({ dataDir: folder.path });
    const path = join(folder.path, 'runs', 'run-7');
    expect(store.runFolderPath('run-7')).to.equal(path);
    const created = await store.openRun('run-7', { create: true });
    expect(await readdir(path)).to.deep.equal(['run.sqlite']);
    await created.close();
    const reopened = await store.openRun('run-7');
    expect(reopened.parts).to.deep.equal([]);
    await reopened.close();
    expect(await store.deleteRun('run-7')).to.be.true;
    expect(await store.deleteRun('run-7')).to.be.false;
    const missing = await store.openRun('run-7').catch((e: unknown) => e);
    expect(missing).to.be.instanceOf(StoreError).with.property('code', 'ERR_STORE_NOT_FOUND');
    await store.close();
  });

  it('refuses a run id that could not be a plain file name', async () => {
    const store = await Store.open({ dataDir: folder.path });
    for (const id of ['../catalog', 'a/b', '', '.hidden']) {
      expect(() => store.runFolderPath(id), id).to.throw(StoreError).with.property('code', 'ERR_STORE_INVALID_ID');
    }
    await store.close();
  });

  it('refuses to be used after close', async () => {
    const store = await Store.open({ dataDir: folder.path });
    await store.close();
    await store.close(); // a second close is harmless
    expect(store.isOpen).to.be.false;
    expect(() => store.saveCatalog()).to.throw(StoreError).with.property('code', 'ERR_STORE_CLOSED');
  });

  describe('defaultDataDir', () => {
    it('is KLVSCOPE_DATA_DIR when set, resolved against the working folder', () => {
      expect(defaultDataDir({ KLVSCOPE_DATA_DIR: '/srv/klvscope' }, '/home/me')).to.equal('/srv/klvscope');
      expect(defaultDataDir({ KLVSCOPE_DATA_DIR: 'store' }, '/home/me')).to.equal('/home/me/store');
    });

    it('is ./data in the working folder when KLVSCOPE_DATA_DIR is unset or blank', () => {
      expect(defaultDataDir({}, '/home/me')).to.equal('/home/me/data');
      expect(defaultDataDir({ KLVSCOPE_DATA_DIR: '  ' }, '/home/me')).to.equal('/home/me/data');
    });
  });
});
