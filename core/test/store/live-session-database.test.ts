import { expect } from 'chai';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { liveDatabasePath, livePartsFolder, type LiveSessionDatabase } from '../../src/store/live-session-database.js';
import { Store } from '../../src/store/store.js';
import { StoreError } from '../../src/store/store-error.js';
import { useTemporaryFolder } from './temporary-folder.js';

const finding = (seq: number, checkId: string, emittedAt = 1_000 * seq) => ({ seq, checkId, severity: 'error', message: `finding ${seq}`, emittedAt });
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const seqsOf = async (database: LiveSessionDatabase, query: { checkId?: string; limit: number; offset: number }) =>
  (await database.findings<{ seq: number }>(query)).rows.map((row) => row.seq);
const NO_LIMITS = { findings: 1_000, metadata: 1_000 };

describe('live session database', () => {
  const folder = useTemporaryFolder('klvscope-live-db-');

  it('keeps findings and metadata packets in arrival order, filtered by check and paged, across a save and reopen', async () => {
    const store = await Store.open({ dataDir: folder.path });
    const database = await store.openLiveDatabase('session-1', { create: true });
    expect(existsSync(liveDatabasePath(folder.path, 'session-1'))).to.equal(true);
    database.append([finding(1, 'a'), finding(2, 'b'), finding(3, 'a')], [{ seq: 1 }, { seq: 2 }]);
    await database.save(NO_LIMITS);
    await database.close();

    const reopened = await store.openLiveDatabase('session-1');
    expect(await seqsOf(reopened, { limit: 10, offset: 0 })).to.deep.equal([1, 2, 3]);
    expect(await reopened.findings({ checkId: 'a', limit: 1, offset: 1 })).to.deep.equal({ total: 2, rows: [finding(3, 'a')] });
    expect(await reopened.metadata({ limit: 10, offset: 1 })).to.deep.equal({ total: 2, rows: [{ seq: 2 }] });
    await reopened.close();
    await store.close();
  });

  it('seals full parts to disk at a save and pages across the parts and the head as one sequence', async () => {
    const store = await Store.open({ dataDir: folder.path });
    const database = await store.openLiveDatabase('session-parts', { create: true, partRows: 4 });
    // 11 findings, every third of check 'b': two parts of 4 sealed, 3 left in the head.
    database.append(range(1, 11).map((seq) => finding(seq, seq % 3 === 0 ? 'b' : 'a')), range(1, 9).map((seq) => ({ seq })));
    await database.save(NO_LIMITS);
    const parts = readdirSync(livePartsFolder(folder.path, 'session-parts')).sort();
    expect(parts).to.deep.equal([
      'findings-000000000001.sqlite',
      'findings-000000000005.sqlite',
      'metadata-000000000001.sqlite',
      'metadata-000000000005.sqlite',
    ]);
    expect(await seqsOf(database, { limit: 100, offset: 0 })).to.deep.equal(range(1, 11));
    expect(await seqsOf(database, { limit: 5, offset: 3 }), 'a page across both parts and the head').to.deep.equal([4, 5, 6, 7, 8]);
    expect(await seqsOf(database, { limit: 2, offset: 9 }), 'a page in the head alone').to.deep.equal([10, 11]);
    expect(await database.findings({ checkId: 'b', limit: 2, offset: 1 })).to.deep.include({ total: 3 });
    expect(await seqsOf(database, { checkId: 'b', limit: 2, offset: 1 })).to.deep.equal([6, 9]);
    expect((await database.metadata<{ seq: number }>({ limit: 3, offset: 7 })).rows.map((row) => row.seq)).to.deep.equal([8, 9]);
    await database.close();

    const reopened = await store.openLiveDatabase('session-parts', { partRows: 4 });
    expect(await reopened.findings({ limit: 1, offset: 10 })).to.deep.equal({ total: 11, rows: [finding(11, 'a')] });
    await reopened.close();
    await store.close();
  });

  it('reads an ended session through one open database, page after page, and closes it with the store', async () => {
    const store = await Store.open({ dataDir: folder.path });
    const database = await store.openLiveDatabase('session-ended', { create: true });
    database.append([finding(1, 'a'), finding(2, 'a'), finding(3, 'b')], []);
    await database.save(NO_LIMITS);
    await database.close();

    const pages: Array<{ database: LiveSessionDatabase; seqs: number[] }> = [];
    for (const offset of [0, 2]) pages.push(await store.readLiveDatabase('session-ended', async (read) => ({ database: read, seqs: await seqsOf(read, { limit: 2, offset }) })));
    expect(pages.map((page) => page.seqs)).to.deep.equal([[1, 2], [3]]);
    expect(pages[1].database, 'the second page reads the database the first opened').to.equal(pages[0].database);
    await store.close();
    let error: unknown;
    await pages[0].database.findings({ limit: 1, offset: 0 }).catch((caught: unknown) => (error = caught));
    expect(error, 'closed with the store').to.be.instanceOf(StoreError).with.property('code', 'ERR_STORE_CLOSED');
  });

  it('drops whole parts beyond its limits, keeping at least the latest rows, and deletes their files', async () => {
    const store = await Store.open({ dataDir: folder.path });
    const database = await store.openLiveDatabase('session-2', { create: true, partRows: 4 });
    for (let batch = 0; batch < 5; batch++) {
      database.append(range(batch * 4 + 1, batch * 4 + 4).map((seq) => finding(seq, 'a')), [{ seq: batch + 1 }]);
      await database.save({ findings: 6, metadata: 2 });
    }
    // 20 findings in 5 parts: keeping 6 keeps the last two parts (8 rows, fewer than a part more than 6).
    expect(await seqsOf(database, { limit: 100, offset: 0 })).to.deep.equal(range(13, 20));
    expect(readdirSync(livePartsFolder(folder.path, 'session-2')).filter((file) => file.startsWith('findings'))).to.have.length(2);
    // Metadata never fills a part of 4 here: the head is pruned exactly.
    expect((await database.metadata({ limit: 100, offset: 0 })).rows).to.deep.equal([{ seq: 4 }, { seq: 5 }]);
    await database.close();
    await store.close();
  });

  it('drops the findings older than its age limit, whatever their number, in parts and in the head', async () => {
    const store = await Store.open({ dataDir: folder.path });
    const database = await store.openLiveDatabase('session-aged', { create: true, partRows: 2 });
    const limits = { findings: 100, metadata: 100, findingsMaxAgeMs: 3_000 };
    database.append([finding(1, 'a'), finding(2, 'a'), finding(3, 'b')], []);
    await database.save({ ...limits, nowMs: 4_000 });
    expect(await seqsOf(database, { limit: 100, offset: 0 })).to.deep.equal([1, 2, 3]);
    // Time passes with nothing new: the next save still ages the findings out (the part of 1 and 2 whole).
    await database.save({ ...limits, nowMs: 5_500 });
    expect(await database.findings({ limit: 100, offset: 0 })).to.deep.equal({ total: 1, rows: [finding(3, 'b')] });
    expect(readdirSync(livePartsFolder(folder.path, 'session-aged'))).to.deep.equal([]);
    await database.close();
    await store.close();
  });

  it('sweeps a part written by a save that never finished: its rows are still the head’s', async () => {
    const store = await Store.open({ dataDir: folder.path });
    const database = await store.openLiveDatabase('session-torn', { create: true, partRows: 100 });
    database.append([finding(1, 'a'), finding(2, 'a')], []);
    await database.save(NO_LIMITS);
    await database.close();
    // What a crash between a part's write and the head's save leaves: a part file the head does not name.
    const torn = join(livePartsFolder(folder.path, 'session-torn'), 'findings-000000000001.sqlite');
    mkdirSync(livePartsFolder(folder.path, 'session-torn'), { recursive: true });
    writeFileSync(torn, 'not yet named');
    const reopened = await store.openLiveDatabase('session-torn');
    expect(existsSync(torn)).to.equal(false);
    expect(await seqsOf(reopened, { limit: 10, offset: 0 })).to.deep.equal([1, 2]);
    await reopened.close();
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
