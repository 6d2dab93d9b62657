import { expect } from 'chai';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseFaultSpec } from '@klvscope/core';
import { startFileTestServer, writeGenerated, type FileTestServer } from './file-test-server.js';

interface Entry {
  hash: string;
  size: number;
  firstPath: string;
  stages: string[];
  updatedMs: number;
}

interface EntryDetail extends Entry {
  ingestRuns: Array<{ id: string; status: string }>;
  report: { verdict: string; runId: string; checks: unknown[] } | null;
}

describe('inspection service: the analysis archive', function () {
  this.timeout(60_000);
  let server: FileTestServer;

  beforeEach(async () => {
    server = await startFileTestServer();
  });

  afterEach(async () => {
    await server.close();
  });

  it('lists, looks up by path, gets by hash and deletes entries with their runs', async () => {
    const inspected = writeGenerated(server.root, 'inspected.ts', { durationSeconds: 3, bitrate: 2_000_000, seed: 31, faults: [parseFaultSpec('pcr-gap@1')] });
    const analysed = writeGenerated(server.root, 'analysed.ts', { durationSeconds: 3, bitrate: 2_000_000, seed: 32 });
    expect((await server.call('/analysis/archive')).json).to.deep.equal({ entries: [] });

    const { fileHash, latestIngestRunId } = (await server.call('/automation/file-session/inspect', { method: 'POST', body: { filePath: inspected.path } })).json as { fileHash: string; latestIngestRunId: string };
    const other = ((await server.call('/analysis/file', { method: 'POST', body: { filePath: analysed.path } })).json as { fileHash: string }).fileHash;

    const list = (await server.call('/analysis/archive')).json as { entries: Entry[] };
    expect(list.entries.map((e) => [e.hash, e.firstPath, e.size, e.stages])).to.deep.equal([
      [other, analysed.path, analysed.size, ['analyze']],
      [fileHash, inspected.path, inspected.size, ['analyze', 'ingest', 'process']],
    ]);

    const byHash = (await server.call(`/analysis/archive/${fileHash}`)).json as EntryDetail;
    expect(byHash).to.deep.include(list.entries[1]);
    expect(byHash.ingestRuns.map((run) => [run.id, run.status])).to.deep.equal([[latestIngestRunId, 'completed']]);
    expect(byHash.report).to.include({ verdict: 'fail', runId: latestIngestRunId });
    expect(((await server.call(`/analysis/archive/${other}`)).json as EntryDetail).report).to.equal(null);

    // By path, and by the content: a copy under another name finds the same entry.
    const lookup = await server.call('/analysis/archive/lookup', { method: 'POST', body: { filePath: inspected.path } });
    expect(lookup.json).to.deep.equal(byHash);
    const copy = join(server.root, 'copy.ts');
    copyFileSync(inspected.path, copy);
    expect(((await server.call('/analysis/archive/lookup', { method: 'POST', body: { filePath: copy } })).json as Entry).hash).to.equal(fileHash);
    const never = writeGenerated(server.root, 'never.ts', { durationSeconds: 1, bitrate: 2_000_000, seed: 33 });
    const missing = await server.call('/analysis/archive/lookup', { method: 'POST', body: { filePath: never.path } });
    expect(missing.status).to.equal(404);
    expect(missing.json).to.have.nested.property('error.code', 'ERR_ARCHIVE_ENTRY_NOT_FOUND');

    const unknown = 'e'.repeat(64);
    const deleted = await server.call('/analysis/archive', { method: 'DELETE', body: { hashes: [fileHash, unknown] } });
    expect(deleted).to.deep.include({ status: 200, json: { deleted: [fileHash] } });
    expect(existsSync(join(server.dataDir, 'runs', `${latestIngestRunId}.sqlite`))).to.equal(false);
    expect((await server.call(`/analysis/archive/${fileHash}`)).status).to.equal(404);
    expect((await server.call(`/automation/ingest-runs/${latestIngestRunId}`)).status).to.equal(404);
    expect(((await server.call('/analysis/archive')).json as { entries: Entry[] }).entries.map((e) => e.hash)).to.deep.equal([other]);
    // The file's hash record stays: asking about it again costs no hashing, and finds no stages.
    expect(((await server.call(`/automation/files/${fileHash}/ingest-runs`)).json as { ingestRuns: unknown[] }).ingestRuns).to.deep.equal([]);
  });

  it('refuses malformed hashes and an empty or oversized delete', async () => {
    expect((await server.call('/analysis/archive/not-a-hash')).status).to.equal(400);
    for (const body of [{ hashes: [] }, { hashes: ['abc'] }, {}, { hashes: Array<string>(1001).fill('a'.repeat(64)) }]) {
      const answer = await server.call('/analysis/archive', { method: 'DELETE', body });
      expect(answer.status, JSON.stringify(body).slice(0, 40)).to.equal(400);
      expect(answer.json).to.have.nested.property('error.code', 'ERR_INVALID_FIELD');
    }
  });
});
