import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineCheck } from '../../src/kernel/define-check.js';
import { generateTransportStream } from '../../src/gen/index.js';
import { listRecentSources } from '../../src/store/catalog-recent-sources.js';
import { Store } from '../../src/store/store.js';
import { hashFile } from '../../src/workflow/file-hash.js';
import { FileSessions } from '../../src/workflow/file-sessions.js';
import { FileWorkflow } from '../../src/workflow/file-workflow.js';
import { WorkflowError } from '../../src/workflow/workflow-error.js';
import { useTemporaryFolder } from '../store/temporary-folder.js';
import { nodeFiles } from './node-file-source.js';

const files = nodeFiles;

/** A point per PES with a PTS, so a report has something to count. */
const ptsCount = defineCheck({
  id: 'pts-count',
  version: '1.0.0',
  title: 'PES with a PTS',
  consumes: ['pes'],
  create(ctx) {
    return { pes: (pes) => pes.pts90kHz !== null && ctx.point(pes, { message: 'PTS' }) };
  },
});

describe('FileSessions', function () {
  this.timeout(60_000);
  const folder = useTemporaryFolder();

  async function stream(name: string): Promise<string> {
    const path = join(folder.path, name);
    await writeFile(path, generateTransportStream({ durationSeconds: 3, bitrate: 2_000_000, seed: 9 }).bytes);
    return path;
  }

  async function withSessions<T>(work: (sessions: FileSessions, store: Store) => Promise<T>): Promise<T> {
    const store = await Store.open({ dataDir: join(folder.path, 'data') });
    try {
      return await work(new FileSessions(store, new FileWorkflow({ store, files, checks: [ptsCount] })), store);
    } finally {
      await store.close();
    }
  }

  it('opens a new file at analyze and completes the stages one by one up to the report', async () => {
    const path = await stream('a.ts');
    await withSessions(async (sessions, store) => {
      const opened = await sessions.open(path);
      expect(opened).to.include({ stage: 'analyze', status: 'active', reportReady: false, latestIngestRunId: null });
      expect(sessions.active()?.sessionId).to.equal(opened.sessionId);
      const stages: string[] = [];
      let workspace = opened;
      while (!workspace.reportReady) {
        workspace = await sessions.completeStage();
        stages.push(workspace.stagesDone.at(-1)?.stage ?? '?');
      }
      expect(stages).to.deep.equal(['analyze', 'ingest', 'process', 'report']);
      expect(workspace.verdict).to.equal('pass');
      expect(workspace.latestIngestRunId).to.be.a('string');
      expect(sessions.activeReport()?.checks[0].summary.points).to.be.greaterThan(0);
      expect(listRecentSources(store.catalog.db).map((r) => r.source)).to.deep.equal([path]);
    });
  });

  it('with deferNewContent, opens new content with no hash yet and names it once the first pass has hashed it', async () => {
    const path = await stream('new.ts');
    await withSessions(async (sessions) => {
      const opened = await sessions.open(path, { deferNewContent: true });
      expect(opened).to.include({ fileHash: '', stage: 'analyze' });
      const done = await sessions.runToReport();
      const hash = await hashFile(path);
      expect(done).to.include({ fileHash: hash, reportReady: true });
      expect(sessions.get(opened.sessionId)?.fileHash, 'the stored session too').to.equal(hash);
    });
  });

  it('starts an unchanged, already inspected file at report, and replaces the active session', async () => {
    const path = await stream('b.ts');
    await withSessions(async (sessions) => {
      const first = await sessions.open(path);
      await sessions.runToReport();
      const second = await sessions.open(path);
      expect(second.stage, 'every stage before the report is reusable').to.equal('report');
      expect(sessions.get(first.sessionId)?.status).to.equal('replaced');
      const done = await sessions.runToReport();
      expect(done.stagesDone.map((s) => s.stage)).to.deep.equal(['report']);
    });
  });

  it('keeps sessions in the catalog, and a stop ends the active one', async () => {
    const path = await stream('c.ts');
    const id = await withSessions(async (sessions) => {
      const opened = await sessions.open(path);
      const stopped = await sessions.stop();
      expect(stopped.status).to.equal('stopped');
      expect(sessions.active()).to.equal(null);
      return opened.sessionId;
    });
    await withSessions((sessions) => {
      expect(sessions.get(id)?.status).to.equal('stopped');
      expect(sessions.list().map((w) => w.sessionId)).to.include(id);
      return Promise.resolve();
    });
  });

  it('keeps a session stopped to make way for a live one as replaced', async () => {
    const path = await stream('c2.ts');
    await withSessions(async (sessions) => {
      const opened = await sessions.open(path);
      expect((await sessions.stop('replaced')).status).to.equal('replaced');
      expect(sessions.active()).to.equal(null);
      expect(sessions.get(opened.sessionId)?.status).to.equal('replaced');
    });
  });

  it('marks a session a previous process left active as interrupted', async () => {
    const path = await stream('d.ts');
    const id = await withSessions(async (sessions) => (await sessions.open(path)).sessionId);
    await withSessions((sessions) => {
      expect(sessions.active()).to.equal(null);
      expect(sessions.get(id)?.status).to.equal('interrupted');
      return Promise.resolve();
    });
  });

  it('says there is no active session when asked to complete or stop one', async () => {
    await withSessions(async (sessions) => {
      for (const call of [() => sessions.completeStage(), () => sessions.stop()]) {
        let error: unknown;
        try {
          await call();
        } catch (caught) {
          error = caught;
        }
        expect(error).to.be.instanceOf(WorkflowError).with.property('code', 'ERR_NO_ACTIVE_SESSION');
      }
    });
  });
});
