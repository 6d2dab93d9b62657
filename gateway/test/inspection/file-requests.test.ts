import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileTestServerForSuite, writeGenerated, type FileTestServer } from './file-test-server.js';

/** Every endpoint that takes a file path, and how it takes it. */
const FILE_ENDPOINTS: Array<{ name: string; send(server: FileTestServer, filePath: string): ReturnType<FileTestServer['call']> }> = [
  ...['/analysis/file', '/analysis/file/jobs', '/ingest/file/jobs', '/process/file/jobs', '/analysis/archive/lookup', '/automation/file-session', '/automation/file-session/inspect', '/automation/files/lookup'].map(
    (path) => ({ name: `POST ${path}`, send: (server: FileTestServer, filePath: string) => server.call(path, { method: 'POST', body: { filePath } }) }),
  ),
  ...['mpegts-errors', 'klv-stream-vs-klv-drift'].map((id) => ({
    name: `GET /analysis/file/${id}`,
    send: (server: FileTestServer, filePath: string) => server.call(`/analysis/file/${id}?filePath=${encodeURIComponent(filePath)}`),
  })),
];

describe('inspection service: the files a request names', function () {
  this.timeout(60_000);
  let server: FileTestServer;
  fileTestServerForSuite((started) => (server = started));

  async function expectError(filePath: string, status: number, code: string): Promise<void> {
    for (const endpoint of FILE_ENDPOINTS) {
      const answer = await endpoint.send(server, filePath);
      expect(answer.status, `${endpoint.name}: ${answer.text}`).to.equal(status);
      expect(answer.json, endpoint.name).to.have.nested.property('error.code', code);
    }
  }

  it('refuses a path outside the browse roots with 403, whether it exists or not, links followed', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'klvscope-outside-'));
    const { path } = writeGenerated(outside, 'elsewhere.ts', { durationSeconds: 1, bitrate: 1_000_000, seed: 5 });
    await expectError(path, 403, 'ERR_FILE_OUTSIDE_ROOTS');
    await expectError(join(outside, 'missing.ts'), 403, 'ERR_FILE_OUTSIDE_ROOTS');
    await expectError(join(server.root, '..', 'escape.ts'), 403, 'ERR_FILE_OUTSIDE_ROOTS');
    const link = join(server.root, 'link.ts');
    symlinkSync(path, link);
    try {
      await expectError(link, 403, 'ERR_FILE_OUTSIDE_ROOTS');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('answers 422 for a missing file and for a folder inside a root', async () => {
    await expectError(join(server.root, 'missing.ts'), 422, 'ERR_FILE_NOT_FOUND');
    const folder = join(server.root, 'folder.ts');
    mkdirSync(folder);
    await expectError(folder, 422, 'ERR_NOT_A_FILE');
  });

  it('refuses a relative path with 400 naming the field', async () => {
    await expectError('recording.ts', 400, 'ERR_INVALID_FIELD');
    const answer = await server.call('/analysis/file/mpegts-errors?filePath=recording.ts');
    expect(answer.json).to.have.deep.nested.property('error.details.fields', [{ in: 'query', field: 'filePath', message: 'the path must be absolute' }]);
  });

  it('answers 422 when the file is not MPEG-TS, on every endpoint that analyses it synchronously', async () => {
    const path = join(server.root, 'notes.ts');
    writeFileSync(path, 'these are notes, not a transport stream\n'.repeat(50));
    for (const answer of [
      await server.call('/analysis/file', { method: 'POST', body: { filePath: path } }),
      await server.call(`/analysis/file/mpegts-pcr-intervals?filePath=${encodeURIComponent(path)}`),
      await server.call('/automation/file-session/inspect', { method: 'POST', body: { filePath: path } }),
    ]) {
      expect(answer.status, answer.text).to.equal(422);
      expect(answer.json).to.have.nested.property('error.code', 'ERR_NOT_TRANSPORT_STREAM');
    }
    // Identifying it is no analysis: the lookup records it, with nothing cached.
    const lookup = await server.call('/automation/files/lookup', { method: 'POST', body: { filePath: path } });
    expect(lookup.status).to.equal(200);
    expect(lookup.json).to.deep.include({ cachedStages: [], nextStage: 'analyze', ingestRuns: [] });
  });

  it('needs the API key on every file endpoint', async () => {
    const { path } = writeGenerated(server.root, 'keyed.ts', { durationSeconds: 1, bitrate: 1_000_000, seed: 6 });
    const answer = await server.call('/analysis/file', { method: 'POST', body: { filePath: path }, key: null });
    expect(answer.status).to.equal(401);
    const dataset = await server.call('/automation/ingest-runs/x/klv/fields', { key: 'wrong-key-wrong-key' });
    expect(dataset.status).to.equal(401);
  });
});
