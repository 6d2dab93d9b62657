import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { appendLiveRows, liveDatabasePath, readLiveFindings, readLiveMetadata } from '../../src/store/live-session-database.js';
import { Store } from '../../src/store/store.js';
import { StoreError } from '../../src/store/store-error.js';
import { useTemporaryFolder } from './temporary-folder.js';

const finding = (seq: number, checkId: string, emittedAt = 1_000 * seq) => ({ seq, checkId, severity: 'error', message: `finding ${seq}`, emittedAt });

describe('live session database', () => {
  const folder = useTemporaryFolder('klvscope-live-db-');

  it('keeps findings and metadata packets in arrival order, filtered by check and paged, across a save and reopen', async () => {
    const store = await Store.open({ dataDir: folder.path });
    const database = await store.openLiveDatabase('session-1', { create: true });
    expect(existsSync(liveDatabasePath(folder.path, 'session-1'))).to.equal(true);
    appendLiveRows(database.db, [finding(1, 'a'), finding(2, 'b'), finding(3, 'a')], [{ seq: 1 }, { seq: 2 }], { findings: 100, metadata: 100 });
    await database.save();
    await database.close();

    const reopened = await store.openLiveDatabase('session-1');
    expect(readLiveFindings<{ seq: number }>(reopened.db, { limit: 10, offset: 0 }).rows.map((row: { seq: number }) => row.seq)).to.deep.equal([1, 2, 3]);
    const ofA = readLiveFindings(reopened.db, { checkId: 'a', limit: 1, offset: 1 });
    expect(ofA).to.deep.equal({ total: 2, rows: [finding(3, 'a')] });
    expect(readLiveMetadata(reopened.db, { limit: 10, offset: 1 })).to.deep.equal({ total: 2, rows: [{ seq: 2 }] });
    await reopened.close();
    await store.close();
  });

  it('reads an ended session from one open database, page after page, and closes it with the store', async () => {
    const store = await Store.open({ dataDir: folder.path });
    const database = await store.openLiveDatabase('session-ended', { create: true });
    appendLiveRows(database.db, [finding(1, 'a'), finding(2, 'a'), finding(3, 'b')], [], { findings: 100, metadata: 100 });
    await database.save();
    await database.close();

    const pages: Array<{ db: unknown; seqs: number[] }> = [];
    for (const offset of [0, 2]) {
      pages.push(await store.readLiveDatabase('session-ended', (db) => ({ db, seqs: readLiveFindings<{ seq: number }>(db, { limit: 2, offset }).rows.map((row) => row.seq) })));
    }
    expect(pages.map((page) => page.seqs)).to.deep.equal([[1, 2], [3]]);
    expect(pages[1].db, 'the second page reads the database the first opened').to.equal(pages[0].db);
    await store.close();
    expect(() => (pages[0].db as { exec(sql: string): unknown }).exec('SELECT 1'), 'closed with the store').to.throw();
  });

  it('drops the oldest rows beyond its limits, keeping the latest', async () => {
    const store = await Store.open({ dataDir: folder.path });
    const database = await store.openLiveDatabase('session-2', { create: true });
    for (let batch = 0; batch < 3; batch++) {
      const findings = Array.from({ length: 4 }, (_, i) => finding(batch * 4 + i + 1, 'a'));
      appendLiveRows(database.db, findings, [{ seq: batch + 1 }], { findings: 5, metadata: 2 });
    }
    expect(readLiveFindings<{ seq: number }>(database.db, { limit: 100, offset: 0 }).rows.map((row: { seq: number }) => row.seq)).to.deep.equal([8, 9, 10, 11, 12]);
    expect(readLiveMetadata(database.db, { limit: 100, offset: 0 }).rows).to.deep.equal([{ seq: 2 }, { seq: 3 }]);
    await database.close();
    await store.close();
  });

  it('drops the findings older than its age limit, whatever their number', async () => {
    const store = await Store.open({ dataDir: folder.path });
    const database = await store.openLiveDatabase('session-aged', { create: true });
    const limits = { findings: 100, metadata: 100, findingsMaxAgeMs: 3_000 };
    appendLiveRows(database.db, [finding(1, 'a'), finding(2, 'a'), finding(3, 'b')], [], { ...limits, nowMs: 4_000 });
    expect(readLiveFindings<{ seq: number }>(database.db, { limit: 100, offset: 0 }).rows.map((row) => row.seq)).to.deep.equal([1, 2, 3]);
    // Time passes with nothing new: the next write (of metadata only) still ages the findings out.
    appendLiveRows(database.db, [], [{ seq: 1 }], { ...limits, nowMs: 5_500 });
    expect(readLiveFindings<{ seq: number }>(database.db, { limit: 100, offset: 0 })).to.deep.equal({ total: 1, rows: [finding(3, 'b')] });
    await database.close();
    await store.close();
  });

  it('refuses a session id that cannot name a file, and a missing database unless asked to create it', async () => {
    const store = await Store.open({ dataDir: folder.path });
    let error: unknown;
    await store.openLiveDatabase('../escape', { create: true }).catch((caught: unknown) => (error = caught));
    expect(error).to.be.instanceOf(StoreError).with.property('code', 'ERR_STORE_INVALID_ID');
    error = undefined;
    await store.openLiveDatabase('never-made').catch((caught: unknown) => (error = caught));
    expect(error).to.be.instanceOf(StoreError);
    await store.close();
  });
});
