/**
 * The catalog's contract (core/src/store/catalog.ts), one suite run against
 * every backend: sql.js (core/test/store/sqljs-catalog.test.ts) and
 * PostgreSQL (adapters/test/postgres/postgres-catalog.test.ts). A backend
 * passes when it behaves exactly as the other, to the order of ties.
 */
import { expect } from 'chai';
import type { Catalog } from '@klvscope/core/store';
import { rejectionOf } from './thrown.js';

/** A fresh, empty catalog for one test; `reopen` closes it and opens the same storage again. */
export interface CatalogUnderTest {
  catalog: Catalog;
  reopen(): Promise<Catalog>;
}

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);
/** 20 GB: past 32 bits, as real recordings are. */
const LARGE_SIZE = 20_000_000_000;

export function describeCatalogContract(backend: string, open: () => Promise<CatalogUnderTest>): void {
  describe(`the catalog contract on ${backend}`, function () {
    let subject: CatalogUnderTest;
    let catalog: Catalog;
    beforeEach(async function () {
      subject = await open();
      catalog = subject.catalog;
    });
    afterEach(async function () {
      await catalog?.close();
    });

    it('keeps the first path of a file and tells known sizes past 32 bits', async function () {
      await catalog.putFile({ hash: HASH_A, size: LARGE_SIZE, firstPath: '/rec/first.ts', firstSeenMs: 1 });
      await catalog.putFile({ hash: HASH_A, size: LARGE_SIZE, firstPath: '/rec/second.ts', firstSeenMs: 2 });
      expect(await catalog.getFile(HASH_A)).to.deep.equal({ hash: HASH_A, size: LARGE_SIZE, firstPath: '/rec/first.ts', firstSeenMs: 1 });
      expect(await catalog.getFile(HASH_B)).to.equal(undefined);
      expect(await catalog.hasFileOfSize(LARGE_SIZE)).to.equal(true);
      expect(await catalog.hasFileOfSize(LARGE_SIZE + 1)).to.equal(false);
    });

    it('replaces the record of a path, keeping a fractional modification time and any characters', async function () {
      const path = '/rec/sortie ünïcödé 飛行.ts';
      await catalog.putFileRecord({ path, size: 10, mtimeMs: 1_700_000_000_123.457, hash: HASH_A, checkedMs: 5 });
      await catalog.putFileRecord({ path, size: 11, mtimeMs: 1_700_000_000_999.25, hash: HASH_B, checkedMs: 6 });
      expect(await catalog.getFileRecord(path)).to.deep.equal({ path, size: 11, mtimeMs: 1_700_000_000_999.25, hash: HASH_B, checkedMs: 6 });
      expect(await catalog.getFileRecord('/rec/other.ts')).to.equal(undefined);
    });

    it('stores stage payloads per key, replaces them, versions them and lists the stages in workflow order', async function () {
      const payload = { verdict: 'fail', counts: { pcr: 3 }, nested: [1, 2.5, null, 'é'], big: 2 ** 40 };
      await catalog.putStagePayload({ hash: HASH_A, stage: 'process', compatibilityKey: 'k1', payload, createdMs: 10 });
      await catalog.putStagePayload({ hash: HASH_A, stage: 'analyze', compatibilityKey: 'k1', payload: { a: 1 }, createdMs: 11 });
      await catalog.putStagePayload({ hash: HASH_A, stage: 'ingest', compatibilityKey: 'k2', payload: { b: 2 }, createdMs: 12 });
      expect(await catalog.getStagePayload(HASH_A, 'process', 'k1')).to.deep.equal({ hash: HASH_A, stage: 'process', compatibilityKey: 'k1', payload, createdMs: 10 });
      expect(await catalog.getStagePayload(HASH_A, 'process', 'k2')).to.equal(undefined);
      expect(await catalog.cachedStages(HASH_A, 'k1')).to.deep.equal(['analyze', 'process']);
      const before = await catalog.stagePayloadVersion(HASH_A, 'process', 'k1');
      await catalog.putStagePayload({ hash: HASH_A, stage: 'process', compatibilityKey: 'k1', payload: { verdict: 'pass' }, createdMs: 10 });
      const after = await catalog.stagePayloadVersion(HASH_A, 'process', 'k1');
      expect(before).to.be.a('string');
      expect(after).to.not.equal(before);
      expect((await catalog.getStagePayload(HASH_A, 'process', 'k1'))?.payload).to.deep.equal({ verdict: 'pass' });
      expect(await catalog.stagePayloadVersion(HASH_B, 'process', 'k1')).to.equal(undefined);
      expect((await catalog.listStagePayloads(HASH_A)).map((row) => `${row.stage} ${row.compatibilityKey}`)).to.deep.equal(['analyze k1', 'ingest k2', 'process k1']);
      expect(await catalog.deleteStagePayloads(HASH_A)).to.equal(3);
      expect(await catalog.deleteStagePayloads(HASH_A)).to.equal(0);
    });

    it('ends a run once, lists runs newest first with ties in reverse insertion order, and finds the latest completed', async function () {
      const first = await catalog.createIngestRun({ id: 'run-1', hash: HASH_A, path: '/rec/a.ts', startedMs: 100 });
      expect(first).to.deep.equal({ id: 'run-1', hash: HASH_A, path: '/rec/a.ts', status: 'running', startedMs: 100, finishedMs: null, counts: {}, timings: {}, error: null });
      await catalog.createIngestRun({ id: 'run-2', hash: HASH_A, path: '/rec/a.ts', startedMs: 100 });
      await catalog.createIngestRun({ id: 'run-3', hash: HASH_A, path: '/rec/a.ts', startedMs: 50 });
      const generated = await catalog.createIngestRun({ hash: HASH_B, path: '/rec/b.ts', startedMs: 1 });
      expect(generated.id).to.match(/^[0-9a-f-]{36}$/);
      expect(await catalog.finishIngestRun('run-1', { status: 'completed', finishedMs: 200, counts: { pcr: 12 }, timings: { read: 3 } })).to.equal(true);
      expect(await catalog.finishIngestRun('run-1', { status: 'failed', finishedMs: 300, error: 'late' })).to.equal(false);
      expect(await catalog.finishIngestRun('run-9', { status: 'failed', finishedMs: 300 })).to.equal(false);
      expect(await catalog.finishIngestRun('run-3', { status: 'completed', finishedMs: 60 })).to.equal(true);
      expect((await catalog.listIngestRuns(HASH_A)).map((run) => run.id)).to.deep.equal(['run-2', 'run-1', 'run-3']);
      expect(await catalog.getIngestRun('run-1')).to.deep.equal({
        id: 'run-1', hash: HASH_A, path: '/rec/a.ts', status: 'completed', startedMs: 100, finishedMs: 200, counts: { pcr: 12 }, timings: { read: 3 }, error: null,
      });
      expect((await catalog.latestCompletedIngestRun(HASH_A))?.id).to.equal('run-1');
      expect(await catalog.latestCompletedIngestRun(HASH_B)).to.equal(undefined);
      await catalog.setIngestRunHash(generated.id, HASH_A);
      expect((await catalog.getIngestRun(generated.id))?.hash).to.equal(HASH_A);
      expect(await catalog.deleteIngestRun('run-2')).to.equal(true);
      expect(await catalog.deleteIngestRun('run-2')).to.equal(false);
      expect(await catalog.getIngestRun('run-2')).to.equal(undefined);
    });

    it('derives archive entries from files with cached stages, newest first, and finds one by path', async function () {
      await catalog.putFile({ hash: HASH_A, size: 1, firstPath: '/rec/a.ts', firstSeenMs: 1 });
      await catalog.putFile({ hash: HASH_B, size: 2, firstPath: '/rec/b.ts', firstSeenMs: 1 });
      await catalog.putFile({ hash: 'c'.repeat(64), size: 3, firstPath: '/rec/c.ts', firstSeenMs: 1 });
      await catalog.putFileRecord({ path: '/rec/b-copy.ts', size: 2, mtimeMs: 1, hash: HASH_B, checkedMs: 1 });
      await catalog.putStagePayload({ hash: HASH_A, stage: 'process', compatibilityKey: 'k', payload: {}, createdMs: 30 });
      await catalog.putStagePayload({ hash: HASH_A, stage: 'analyze', compatibilityKey: 'j', payload: {}, createdMs: 10 });
      await catalog.putStagePayload({ hash: HASH_B, stage: 'ingest', compatibilityKey: 'k', payload: {}, createdMs: 40 });
      expect(await catalog.listArchiveEntries()).to.deep.equal([
        { hash: HASH_B, size: 2, firstPath: '/rec/b.ts', stages: ['ingest'], updatedMs: 40 },
        { hash: HASH_A, size: 1, firstPath: '/rec/a.ts', stages: ['analyze', 'process'], updatedMs: 30 },
      ]);
      expect((await catalog.getArchiveEntry(HASH_A))?.stages).to.deep.equal(['analyze', 'process']);
      expect(await catalog.getArchiveEntry('c'.repeat(64))).to.equal(undefined);
      expect((await catalog.findArchiveEntryByPath('/rec/b-copy.ts'))?.hash).to.equal(HASH_B);
      expect(await catalog.findArchiveEntryByPath('/rec/none.ts')).to.equal(undefined);
    });

    it('keeps configuration values as JSON, lists keys in byte order and refuses undefined', async function () {
      await catalog.setConfigValue('browseRoots', ['/rec', '/mnt'], 1);
      await catalog.setConfigValue('Zeta', { on: true }, 1);
      await catalog.setConfigValue('alpha', 0.5, 1);
      await catalog.setConfigValue('alpha', null, 2);
      expect(await catalog.getConfigValue('browseRoots')).to.deep.equal(['/rec', '/mnt']);
      expect(await catalog.getConfigValue('missing')).to.equal(undefined);
      expect(Object.keys(await catalog.readConfig())).to.deep.equal(['Zeta', 'alpha', 'browseRoots']);
      expect((await catalog.readConfig()).alpha).to.equal(null);
      expect(await rejectionOf(catalog.setConfigValue('x', undefined, 1))).to.be.instanceOf(TypeError);
      expect(await catalog.deleteConfigValue('alpha')).to.equal(true);
      expect(await catalog.deleteConfigValue('alpha')).to.equal(false);
    });

    it('saves rule templates keeping their creation time, lists them by name', async function () {
      const saved = await catalog.saveRuleTemplate('strict', { 'mpegts-pcr-intervals': { maxIntervalMs: 40 } }, 100);
      expect(saved).to.deep.equal({ name: 'strict', rules: { 'mpegts-pcr-intervals': { maxIntervalMs: 40 } }, createdMs: 100, updatedMs: 100 });
      const again = await catalog.saveRuleTemplate('strict', { x: 1 }, 200);
      expect(again).to.deep.equal({ name: 'strict', rules: { x: 1 }, createdMs: 100, updatedMs: 200 });
      await catalog.saveRuleTemplate('Loose', {}, 300);
      expect((await catalog.listRuleTemplates()).map((row) => row.name)).to.deep.equal(['Loose', 'strict']);
      expect(await catalog.getRuleTemplate('none')).to.equal(undefined);
      expect(await catalog.deleteRuleTemplate('strict')).to.equal(true);
      expect(await catalog.deleteRuleTemplate('strict')).to.equal(false);
    });

    it('keeps every write of a transaction that returns, and none of one that throws', async function () {
      const result = await catalog.transaction(async (tx) => {
        await tx.putFile({ hash: HASH_A, size: 1, firstPath: '/a', firstSeenMs: 1 });
        await tx.createIngestRun({ id: 'kept', hash: HASH_A, path: '/a', startedMs: 1 });
        return 'done';
      });
      expect(result).to.equal('done');
      const failure = await rejectionOf(
        catalog.transaction(async (tx) => {
          await tx.putFile({ hash: HASH_B, size: 2, firstPath: '/b', firstSeenMs: 1 });
          await tx.finishIngestRun('kept', { status: 'completed', finishedMs: 2 });
          // Inside, its own writes are seen.
          expect((await tx.getIngestRun('kept'))?.status).to.equal('completed');
          throw new Error('abandoned');
        }),
      );
      expect((failure as Error).message).to.equal('abandoned');
      expect(await catalog.getFile(HASH_B)).to.equal(undefined);
      expect((await catalog.getIngestRun('kept'))?.status).to.equal('running');
      expect(await catalog.getFile(HASH_A)).to.not.equal(undefined);
    });

    it('keeps what was written across a close and an open', async function () {
      await catalog.putFile({ hash: HASH_A, size: 7, firstPath: '/a', firstSeenMs: 1 });
      await catalog.setConfigValue('k', 'v', 1);
      catalog = await subject.reopen();
      expect((await catalog.getFile(HASH_A))?.size).to.equal(7);
      expect(await catalog.getConfigValue('k')).to.equal('v');
      expect(await catalog.schemaVersion()).to.be.greaterThan(0);
    });

    it('finds nothing wrong in a sound catalog, and names each row that contradicts the rest', async function () {
      await catalog.putFile({ hash: HASH_A, size: 1, firstPath: '/a', firstSeenMs: 1 });
      await catalog.putFileRecord({ path: '/a', size: 1, mtimeMs: 1, hash: HASH_A, checkedMs: 1 });
      await catalog.putStagePayload({ hash: HASH_A, stage: 'analyze', compatibilityKey: 'k', payload: {}, createdMs: 1 });
      await catalog.createIngestRun({ id: 'sound', hash: HASH_A, path: '/a', startedMs: 1 });
      await catalog.finishIngestRun('sound', { status: 'completed', finishedMs: 2 });
      expect(await catalog.checkConsistency()).to.deep.equal([]);
      await catalog.putFileRecord({ path: '/lost', size: 1, mtimeMs: 1, hash: HASH_B, checkedMs: 1 });
      await catalog.putStagePayload({ hash: HASH_B, stage: 'analyze', compatibilityKey: 'k', payload: {}, createdMs: 1 });
      await catalog.createIngestRun({ id: 'orphan', hash: HASH_B, path: '/lost', startedMs: 1 });
      await catalog.finishIngestRun('orphan', { status: 'completed', finishedMs: 2 });
      expect(await catalog.checkConsistency()).to.deep.equal([
        { kind: 'record-without-file', subject: '/lost' },
        { kind: 'payload-without-file', subject: HASH_B },
        { kind: 'completed-run-without-file', subject: 'orphan' },
      ]);
    });
  });
}
