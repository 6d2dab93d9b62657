import { expect } from 'chai';
import {
  createIngestRun,
  deleteIngestRun,
  finishIngestRun,
  getIngestRun,
  INTERRUPTED_RUN_ERROR,
  latestCompletedIngestRun,
  listIngestRuns,
  markRunningRunsInterrupted,
} from '../../src/store/catalog-ingest-runs.js';
import { useCatalogInMemory } from './catalog-in-memory.js';

const HASH = 'e'.repeat(64);

describe('catalog ingest runs', () => {
  const catalog = useCatalogInMemory();

  it('records a new run as running, with a random id unless one is given', () => {
    const run = createIngestRun(catalog.db, { hash: HASH, path: '/rec/a.ts', startedMs: 100 });
    expect(run.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(getIngestRun(catalog.db, run.id)).to.deep.equal({ ...run, status: 'running', finishedMs: null, counts: {}, timings: {}, error: null });
    expect(createIngestRun(catalog.db, { id: 'mine', hash: HASH, path: '/rec/a.ts', startedMs: 101 }).id).to.equal('mine');
  });

  it('ends a running run once, with its counts, timings and error', () => {
    const run = createIngestRun(catalog.db, { id: 'r1', hash: HASH, path: '/rec/a.ts', startedMs: 100 });
    expect(finishIngestRun(catalog.db, run.id, { status: 'failed', finishedMs: 150, counts: { pcr: 3 }, timings: { readMs: 40 }, error: 'read error' })).to.be.true;
    expect(getIngestRun(catalog.db, 'r1')).to.deep.equal({
      id: 'r1',
      hash: HASH,
      path: '/rec/a.ts',
      status: 'failed',
      startedMs: 100,
      finishedMs: 150,
      counts: { pcr: 3 },
      timings: { readMs: 40 },
      error: 'read error',
    });
    expect(finishIngestRun(catalog.db, run.id, { status: 'completed', finishedMs: 160 })).to.be.false;
    expect(finishIngestRun(catalog.db, 'absent', { status: 'completed', finishedMs: 160 })).to.be.false;
    expect(getIngestRun(catalog.db, 'r1')?.status).to.equal('failed');
  });

  it('lists a file\'s runs newest first and finds the newest completed one', () => {
    for (const [id, startedMs, status] of [['old', 1, 'completed'], ['mid', 2, 'cancelled'], ['new', 3, 'completed'], ['now', 4, undefined]] as const) {
      createIngestRun(catalog.db, { id, hash: HASH, path: '/rec/a.ts', startedMs });
      if (status) finishIngestRun(catalog.db, id, { status, finishedMs: startedMs + 1 });
    }
    createIngestRun(catalog.db, { id: 'other', hash: 'f'.repeat(64), path: '/rec/b.ts', startedMs: 9 });
    expect(listIngestRuns(catalog.db, HASH).map((run) => run.id)).to.deep.equal(['now', 'new', 'mid', 'old']);
    expect(latestCompletedIngestRun(catalog.db, HASH)?.id).to.equal('new');
    expect(latestCompletedIngestRun(catalog.db, 'f'.repeat(64))).to.be.undefined;
  });

  it('marks only the running runs interrupted and names them', () => {
    createIngestRun(catalog.db, { id: 'done', hash: HASH, path: '/rec/a.ts', startedMs: 1 });
    finishIngestRun(catalog.db, 'done', { status: 'completed', finishedMs: 2 });
    createIngestRun(catalog.db, { id: 'r2', hash: HASH, path: '/rec/a.ts', startedMs: 3 });
    createIngestRun(catalog.db, { id: 'r3', hash: HASH, path: '/rec/a.ts', startedMs: 4 });
    expect(markRunningRunsInterrupted(catalog.db)).to.deep.equal(['r2', 'r3']);
    expect(getIngestRun(catalog.db, 'r2')).to.include({ status: 'interrupted', error: INTERRUPTED_RUN_ERROR });
    expect(getIngestRun(catalog.db, 'done')).to.include({ status: 'completed', error: null });
    expect(markRunningRunsInterrupted(catalog.db)).to.deep.equal([]);
  });

  it('deletes a run', () => {
    createIngestRun(catalog.db, { id: 'gone', hash: HASH, path: '/rec/a.ts', startedMs: 1 });
    expect(deleteIngestRun(catalog.db, 'gone')).to.be.true;
    expect(getIngestRun(catalog.db, 'gone')).to.be.undefined;
    expect(deleteIngestRun(catalog.db, 'gone')).to.be.false;
  });

  it('refuses a status outside running, completed, interrupted, cancelled and failed', () => {
    createIngestRun(catalog.db, { id: 'r', hash: HASH, path: '/rec/a.ts', startedMs: 1 });
    expect(() => catalog.db.run("UPDATE ingest_runs SET status = 'paused'")).to.throw('CHECK constraint failed');
  });
});
