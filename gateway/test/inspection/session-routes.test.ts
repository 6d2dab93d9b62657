import { expect } from 'chai';
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateTransportStream, parseFaultSpec } from '@klvscope/core';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { defaultSettings } from '../../src/inspection/inspection-settings.js';
import { startTestServer, tempDataDir, type TestServer } from './test-server.js';

interface Workspace {
  sessionId: string;
  stage: string;
  status: string;
  reportReady: boolean;
  verdict: string | null;
  latestIngestRunId: string | null;
  playback?: { url: string; expiresAt: string };
}

describe('inspection service: sessions and playback', function () {
  this.timeout(60_000);
  let server: TestServer;
  let recordings: string;
  let file: string;
  let bytes: Uint8Array;

  beforeEach(async () => {
    recordings = tempDataDir();
    ({ bytes } = generateTransportStream({ durationSeconds: 4, bitrate: 2_000_000, seed: 4, klv: { carriage: 'async' }, faults: [parseFaultSpec('pcr-gap@2')] }));
    file = join(recordings, 'flight.ts');
    writeFileSync(file, bytes);
    server = await startTestServer({ defaultSettings: { ...defaultSettings(), browseRoots: [recordings] } });
  });

  afterEach(async () => {
    await server.close();
  });

  it('starts a file session, completes its stages one by one, and reports findings and metadata', async () => {
    const started = await server.call('/sessions/file', { method: 'POST', body: { filePath: file } });
    expect(started.status).to.equal(201);
    const workspace = started.json as Workspace;
    expect(workspace).to.include({ stage: 'analyze', status: 'active' });
    const { playback: _playback, ...plain } = workspace;
    expect((await server.call('/sessions/active')).json).to.deep.equal({ active: plain });

    const stages: string[] = [];
    let current = workspace;
    while (!current.reportReady) {
      const done = await server.call('/sessions/active/stage/complete', { method: 'POST' });
      expect(done.status, done.text).to.equal(200);
      current = done.json as Workspace;
      stages.push(current.stage);
    }
    expect(stages).to.deep.equal(['ingest', 'process', 'report', 'report']);
    expect(current.verdict).to.equal('fail');

    const findings = (await server.call(`/sessions/${workspace.sessionId}/findings?checkId=mpegts-pcr-intervals`)).json as { total: number; findings: Array<{ checkId: string; violation: boolean }> };
    expect(findings.total).to.be.greaterThan(0);
    expect(findings.findings.every((f) => f.checkId === 'mpegts-pcr-intervals' && f.violation)).to.equal(true);

    const metadata = (await server.call(`/sessions/${workspace.sessionId}/metadata?limit=5`)).json as { total: number; items: Array<{ standard: string }> };
    expect(metadata.total).to.equal(120);
    expect(metadata.items).to.have.length(5);
    expect(metadata.items[0].standard).to.equal('MISB ST 0601');

    const stopped = await server.call('/sessions/active', { method: 'DELETE' });
    expect((stopped.json as Workspace).status).to.equal('stopped');
    expect((await server.call('/sessions/active')).json).to.deep.equal({ active: null });
    expect((await server.call(`/sessions/${workspace.sessionId}`)).json).to.include({ status: 'stopped' });
  });

  it('answers 409 for stage and stop without an active session, 404 for an unknown one, 400 for a live source that is not one', async () => {
    const complete = await server.call('/sessions/active/stage/complete', { method: 'POST' });
    expect([complete.status, (complete.json as { error: { code: string } }).error.code]).to.deep.equal([409, 'ERR_NO_ACTIVE_SESSION']);
    expect((await server.call('/sessions/active', { method: 'DELETE' })).status).to.equal(409);
    expect((await server.call('/sessions/no-such-session')).status).to.equal(404);
    const live = await server.call('/sessions/live', { method: 'POST', body: { source: 'http://239.1.1.1:5000' } });
    expect([live.status, (live.json as { error: { code: string } }).error.code]).to.deep.equal([400, 'ERR_SOURCE_URL_INVALID']);
    expect((await server.call('/sessions/active')).json).to.deep.equal({ active: null });
  });

  it('plays the session’s recording by its token, without the key, whole or by byte range', async () => {
    const workspace = (await server.call('/sessions/file', { method: 'POST', body: { filePath: file } })).json as Workspace;
    const url = `${server.url.replace(/\/api\/v1$/, '')}${workspace.playback?.url ?? ''}`;
    const whole = await fetch(url);
    expect(whole.status).to.equal(200);
    expect(whole.headers.get('content-type')).to.equal('video/mp2t');
    expect(Buffer.from(await whole.arrayBuffer()).equals(Buffer.from(bytes))).to.equal(true);

    const part = await fetch(url, { headers: { range: 'bytes=188-375' } });
    expect(part.status).to.equal(206);
    expect(part.headers.get('content-range')).to.equal(`bytes 188-375/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(Buffer.from(bytes.subarray(188, 376)))).to.equal(true);

    const tail = await fetch(url, { headers: { range: 'bytes=-188' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(Buffer.from(bytes.subarray(bytes.length - 188)))).to.equal(true);
    expect((await fetch(url, { headers: { range: `bytes=${bytes.length}-` } })).status).to.equal(416);

    await server.call('/sessions/active', { method: 'DELETE' });
    expect((await fetch(url)).status, 'stopping the session revokes its token').to.equal(404);
    expect((await fetch(`${server.url}/playback/${'A'.repeat(43)}`)).status).to.equal(404);
  });

  it('revokes the playback token when automation replaces the session, not when the replacement fails', async () => {
    const workspace = (await server.call('/sessions/file', { method: 'POST', body: { filePath: file } })).json as Workspace;
    const url = `${server.url.replace(/\/api\/v1$/, '')}${workspace.playback?.url ?? ''}`;
    const missing = await server.call('/automation/file-session', { method: 'POST', body: { filePath: join(recordings, 'no-such.ts') } });
    expect(missing.status, missing.text).to.equal(422);
    expect((await fetch(url)).status, 'the session is still active: its token plays').to.equal(200);

    const other = join(recordings, 'other.ts');
    writeFileSync(other, bytes);
    const replaced = await server.call('/automation/file-session', { method: 'POST', body: { filePath: other } });
    expect(replaced.status, replaced.text).to.equal(200);
    expect((await server.call(`/sessions/${workspace.sessionId}`)).json).to.include({ status: 'replaced' });
    expect((await fetch(url)).status, 'the replaced session’s token is revoked').to.equal(404);
  });

  it('keeps a file session that a live session replaces as replaced, and revokes its playback token', async () => {
    const workspace = (await server.call('/sessions/file', { method: 'POST', body: { filePath: file } })).json as Workspace;
    const url = `${server.url.replace(/\/api\/v1$/, '')}${workspace.playback?.url ?? ''}`;
    const port = await freeUdpPort();
    const live = await server.call('/sessions/live', { method: 'POST', body: { source: `udp://127.0.0.1:${port}` } });
    expect(live.status, live.text).to.equal(201);
    expect((await server.call(`/sessions/${workspace.sessionId}`)).json).to.include({ status: 'replaced' });
    expect((await fetch(url)).status, 'the replaced session’s token is revoked').to.equal(404);
    expect((await server.call('/sessions/active', { method: 'DELETE' })).status).to.equal(200);
  });

  it('refuses a session on a missing file with 422 ERR_FILE_NOT_FOUND, leaving the active live session running', async () => {
    const port = await freeUdpPort();
    const live = (await server.call('/sessions/live', { method: 'POST', body: { source: `udp://127.0.0.1:${port}` } })).json as { sessionId: string };
    const missing = join(realpathSync(recordings), 'no-such.ts');
    const refused = await server.call('/sessions/file', { method: 'POST', body: { filePath: missing } });
    expect([refused.status, refused.json]).to.deep.equal([
      422,
      { error: { code: 'ERR_FILE_NOT_FOUND', message: `no such file: ${missing}`, details: { path: missing, errno: 'ENOENT' } } },
    ]);
    const active = (await server.call('/sessions/active')).json as { active: { sessionId: string; status: string } };
    expect(active.active).to.include({ sessionId: live.sessionId, status: 'waiting' });
    expect((await server.call('/sessions/active', { method: 'DELETE' })).status).to.equal(200);
  });

  it('refuses a session on a file outside the browse roots, reading nothing', async () => {
    const outside = join(tempDataDir(), 'secret.ts');
    writeFileSync(outside, bytes);
    const refused = await server.call('/sessions/file', { method: 'POST', body: { filePath: outside } });
    expect(refused.status).to.equal(403);
    expect((await server.call('/sessions/active')).json).to.deep.equal({ active: null });
  });
});
