import { expect } from 'chai';
import { existsSync, realpathSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { RAW_DATASETS } from '@klvscope/core/store';
import { fixtureOrSkip } from '../../../test-support/fixtures.js';
import { fileTestServerForSuite, writeGenerated, type FileTestServer } from './file-test-server.js';

interface IngestRun {
  id: string;
  hash: string;
  status: string;
  counts: Record<string, number>;
}

interface Page {
  total: number;
  rows: Array<Record<string, unknown>>;
  nextCursor: string | null;
}

/** CSV records (RFC 4180: a CRLF inside quotes is data). */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') record.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') record.push(field), records.push(record), (record = []), (field = ''), i++;
    else field += c;
  }
  return records;
}

/** A GET on the raw socket: the body and the HTTP trailers (fetch does not show trailers). */
function getWithTrailers(server: FileTestServer, path: string): Promise<{ status: number; body: string; trailers: NodeJS.Dict<string> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { headers: { 'x-api-key': server.key } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, trailers: res.trailers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('inspection service: automation and raw dataset export', function () {
  this.timeout(120_000);
  let server: FileTestServer;
  fileTestServerForSuite((started) => (server = started));

  it('drives a real recording to its report, and every identifier it returns works on the other automation endpoints and every dataset export', async function () {
    const filePath = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const inspected = await server.call('/automation/file-session/inspect', { method: 'POST', body: { filePath } });
    expect(inspected.status, inspected.text).to.equal(200);
    const { workspace, fileHash, latestIngestRunId, report } = inspected.json as {
      workspace: { fileHash: string; stage: string; reportReady: boolean; latestIngestRunId: string; status: string };
      fileHash: string;
      latestIngestRunId: string;
      report: { fileHash: string; runId: string; verdict: string; checks: unknown[] };
    };
    expect(fileHash).to.match(/^[0-9a-f]{64}$/);
    expect(workspace).to.include({ fileHash, latestIngestRunId, reportReady: true, stage: 'report', status: 'active' });
    expect(report).to.include({ fileHash, runId: latestIngestRunId });
    expect(report.checks).to.have.length(17);

    const lookup = (await server.call('/automation/files/lookup', { method: 'POST', body: { filePath } })).json as {
      file: { hash: string; size: number };
      record: { path: string; hash: string };
      compatibilityKey: { parseKey: string; checkKey: string; checks: string[] };
      cachedStages: string[];
      nextStage: string;
      ingestRuns: IngestRun[];
    };
    expect(lookup.file.hash).to.equal(fileHash);
    // The service names a file by its real path (links followed): the fixtures folder may be reached through a link.
    expect(lookup.record).to.include({ path: realpathSync(filePath), hash: fileHash });
    expect(lookup.compatibilityKey.parseKey).to.equal('parser-1.1.1');
    expect(lookup.compatibilityKey.checks).to.have.length(17);
    expect([lookup.cachedStages, lookup.nextStage]).to.deep.equal([['analyze', 'ingest', 'process'], 'report']);
    expect(lookup.ingestRuns.map((run) => [run.id, run.status])).to.deep.equal([[latestIngestRunId, 'completed']]);

    const stages: Record<string, { fileHash: string; stage: string; compatibilityKey: string; payload: Record<string, unknown> }> = {};
    for (const stage of ['analyze', 'ingest', 'process']) {
      const answer = await server.call(`/automation/files/${fileHash}/stages/${stage}`);
      expect(answer.status, `${stage}: ${answer.text}`).to.equal(200);
      stages[stage] = answer.json as (typeof stages)[string];
      expect(stages[stage]).to.include({ fileHash, stage });
    }
    expect(stages.analyze.compatibilityKey).to.equal(lookup.compatibilityKey.parseKey);
    expect(stages.process.compatibilityKey).to.equal(lookup.compatibilityKey.checkKey);
    expect(stages.ingest.payload.runId).to.equal(latestIngestRunId);
    expect(stages.process.payload.runId).to.equal(latestIngestRunId);

    const runs = (await server.call(`/automation/files/${fileHash}/ingest-runs`)).json as { fileHash: string; ingestRuns: IngestRun[] };
    expect(runs.ingestRuns.map((run) => run.id)).to.deep.equal([latestIngestRunId]);
    const latest = (await server.call(`/automation/files/${fileHash}/ingest-runs/latest`)).json as IngestRun;
    const run = (await server.call(`/automation/ingest-runs/${latestIngestRunId}`)).json as IngestRun;
    expect(latest).to.deep.equal(run);
    expect(run).to.include({ id: latestIngestRunId, hash: fileHash, status: 'completed' });
    expect(run.counts).to.deep.equal(stages.ingest.payload.counts);

    for (const dataset of RAW_DATASETS) {
      const base = `/automation/ingest-runs/${latestIngestRunId}/${dataset.name}`;
      const count = run.counts[dataset.kind];
      const json = await server.call(base);
      expect(json.status, `${dataset.name}: ${json.text}`).to.equal(200);
      expect(json.headers.get('content-type'), dataset.name).to.equal('application/json; charset=utf-8');
      expect(json.headers.get('x-total-count'), dataset.name).to.equal(String(count));
      const whole = json.json as Page;
      expect([whole.total, whole.rows.length, whole.nextCursor], dataset.name).to.deep.equal([count, count, null]);

      const ndjson = await server.call(`${base}?format=ndjson`);
      expect(ndjson.headers.get('content-type'), dataset.name).to.equal('application/x-ndjson; charset=utf-8');
      const lines = ndjson.text === '' ? [] : ndjson.text.replace(/\n$/, '').split('\n');
      expect(lines.map((line) => JSON.parse(line) as unknown), dataset.name).to.deep.equal(whole.rows);

      const csv = await server.call(`${base}?format=csv`);
      expect(csv.headers.get('content-type'), dataset.name).to.equal('text/csv; charset=utf-8; header=present');
      const [header, ...records] = csvRecords(csv.text);
      expect(header, dataset.name).to.deep.equal([...dataset.fields]);
      expect(records.length, dataset.name).to.equal(count);
      expect(records.map((r) => Number(r[0])), dataset.name).to.deep.equal(whole.rows.map((r) => r.seq));

      // Cursor paging, about five pages: their rows together are the whole dataset.
      const limit = Math.max(1, Math.ceil(count / 5));
      const paged: Page['rows'] = [];
      let cursor: string | null = '';
      let pages = 0;
      while (cursor !== null) {
        const page = (await server.call(`${base}?limit=${limit}${cursor === '' ? '' : `&cursor=${cursor}`}`)).json as Page;
        expect(page.total, dataset.name).to.equal(count);
        paged.push(...page.rows);
        cursor = page.nextCursor;
        pages++;
      }
      expect(paged, dataset.name).to.deep.equal(whole.rows);
      expect(pages, dataset.name).to.equal(count === 0 ? 1 : Math.ceil(count / limit));
    }
  });

  it('chooses the format by the format parameter, else by Accept, and gives NDJSON and CSV pages their next cursor in a trailer', async function () {
    const filePath = fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts');
    const { latestIngestRunId } = (await server.call('/automation/file-session/inspect', { method: 'POST', body: { filePath } })).json as { latestIngestRunId: string };
    const base = `/automation/ingest-runs/${latestIngestRunId}/klv/fields`;
    const typeOf = async (query: string, accept?: string): Promise<string | null> =>
      (await server.call(`${base}${query}`, { headers: accept === undefined ? {} : { accept } })).headers.get('content-type');
    expect(await typeOf('', 'text/csv')).to.match(/^text\/csv/);
    expect(await typeOf('', 'application/x-ndjson, application/json;q=0.5')).to.match(/^application\/x-ndjson/);
    expect(await typeOf('', 'application/json;q=0.4, text/csv;q=0.9')).to.match(/^text\/csv/);
    expect(await typeOf('', 'text/html')).to.match(/^application\/json/);
    expect(await typeOf('?format=json', 'text/csv')).to.match(/^application\/json/);

    const first = await getWithTrailers(server, `${base}?format=ndjson&limit=10`);
    expect(first.status).to.equal(200);
    expect(first.body.split('\n').filter((line) => line !== '')).to.have.length(10);
    const cursor = first.trailers['x-next-cursor'];
    expect(cursor).to.be.a('string').and.not.equal('');
    const json = (await server.call(`${base}?limit=10`)).json as Page;
    expect(cursor).to.equal(json.nextCursor);
    const rest = await getWithTrailers(server, `${base}?format=csv&cursor=${cursor}`);
    expect(rest.trailers['x-next-cursor']).to.equal('');
  });

  it('filters table positions and errors, and refuses paging and filter values the dataset does not take', async function () {
    const filePath = fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts');
    const { latestIngestRunId } = (await server.call('/automation/file-session/inspect', { method: 'POST', body: { filePath } })).json as { latestIngestRunId: string };
    const base = `/automation/ingest-runs/${latestIngestRunId}`;
    const pats = (await server.call(`${base}/mpegts/table-positions?tableType=PAT`)).json as Page;
    expect(pats.total).to.be.greaterThan(0);
    expect(pats.rows.every((row) => row.tableType === 'PAT')).to.equal(true);
    expect((await server.call(`${base}/mpegts/errors?types=continuity-error,sync-loss`)).status).to.equal(200);
    for (const [query, parameter] of [
      ['/mpegts/pid-stats?limit=0', 'limit'],
      ['/mpegts/pid-stats?offset=2&cursor=x', 'cursor'],
      ['/mpegts/pid-stats?cursor=nonsense', 'cursor'],
      ['/mpegts/table-positions?tableType=SDT', 'tableType'],
      ['/mpegts/errors?types=cc-error', 'types'],
      ['/klv/fields?tableType=PAT', 'tableType'],
    ]) {
      const answer = await server.call(`${base}${query}`);
      expect(answer.status, query).to.equal(400);
      expect(answer.json, query).to.have.nested.property('error.code', 'ERR_DATASET_INVALID_PARAMETER');
      expect(answer.json, query).to.have.nested.property('error.details.parameter', parameter);
    }
    const unknownParameter = await server.call(`${base}/mpegts/pid-stats?colour=red`);
    expect(unknownParameter.json).to.have.deep.nested.property('error.details.fields', [{ in: 'query', field: 'colour', message: 'unknown field' }]);
    const badFormat = await server.call(`${base}/mpegts/pid-stats?format=xml`);
    expect([badFormat.status, (badFormat.json as { error: { code: string } }).error.code]).to.deep.equal([400, 'ERR_INVALID_FIELD']);
  });

  it('answers 404 for unknown hashes, runs and uncached stages, and 400 for a malformed hash', async () => {
    const { path } = writeGenerated(server.root, 'analysed-only.ts', { durationSeconds: 2, bitrate: 2_000_000, seed: 77 });
    const { fileHash } = (await server.call('/analysis/file', { method: 'POST', body: { filePath: path } })).json as { fileHash: string };
    const unknownHash = 'f'.repeat(64);
    const cases: Array<[string, number, string]> = [
      [`/automation/files/${fileHash}/stages/analyze`, 200, ''],
      [`/automation/files/${fileHash}/stages/ingest`, 404, 'ERR_STAGE_NOT_CACHED'],
      [`/automation/files/${fileHash}/stages/process`, 404, 'ERR_STAGE_NOT_CACHED'],
      [`/automation/files/${fileHash}/ingest-runs/latest`, 404, 'ERR_INGEST_RUN_NOT_FOUND'],
      [`/automation/files/${unknownHash}/stages/analyze`, 404, 'ERR_FILE_UNKNOWN'],
      [`/automation/files/${unknownHash}/ingest-runs`, 404, 'ERR_FILE_UNKNOWN'],
      [`/automation/files/${unknownHash}/ingest-runs/latest`, 404, 'ERR_FILE_UNKNOWN'],
      ['/automation/ingest-runs/no-such-run', 404, 'ERR_INGEST_RUN_NOT_FOUND'],
      ['/automation/ingest-runs/no-such-run/klv/fields', 404, 'ERR_INGEST_RUN_NOT_FOUND'],
      ['/automation/files/ABC/ingest-runs', 400, 'ERR_INVALID_FIELD'],
      [`/automation/files/${fileHash}/stages/report`, 400, 'ERR_INVALID_FIELD'],
    ];
    for (const [path, status, code] of cases) {
      const answer = await server.call(path);
      expect(answer.status, path).to.equal(status);
      if (code !== '') expect(answer.json, path).to.have.nested.property('error.code', code);
    }
    expect(((await server.call(`/automation/files/${fileHash}/ingest-runs`)).json as { ingestRuns: unknown[] }).ingestRuns).to.deep.equal([]);
  });

  it('opens a file session at the first stage it cannot reuse, replacing the active one', async () => {
    const first = writeGenerated(server.root, 'session-a.ts', { durationSeconds: 2, bitrate: 2_000_000, seed: 78 });
    const second = writeGenerated(server.root, 'session-b.ts', { durationSeconds: 2, bitrate: 2_000_000, seed: 79 });
    await server.call('/analysis/file', { method: 'POST', body: { filePath: second.path } });
    const a = (await server.call('/automation/file-session', { method: 'POST', body: { filePath: first.path } })).json as { sessionId: string; stage: string; path: string };
    expect(a).to.include({ stage: 'analyze', path: first.path });
    const b = (await server.call('/automation/file-session', { method: 'POST', body: { filePath: second.path } })).json as { sessionId: string; stage: string };
    expect(b.stage).to.equal('ingest');
    expect((await server.call(`/sessions/${a.sessionId}`)).json).to.include({ status: 'replaced' });
    expect((await server.call('/sessions/active')).json).to.have.nested.property('active.sessionId', b.sessionId);
  });

  it('gives the run back when a client leaves in the middle of an export', async () => {
    const { path } = writeGenerated(server.root, 'export.ts', { durationSeconds: 20, bitrate: 4_000_000, seed: 80, klv: { carriage: 'sync' } });
    const { fileHash, latestIngestRunId } = (await server.call('/automation/file-session/inspect', { method: 'POST', body: { filePath: path } })).json as { fileHash: string; latestIngestRunId: string };
    const controller = new AbortController();
    const response = await fetch(`${server.url}/automation/ingest-runs/${latestIngestRunId}/klv/fields?format=csv`, { headers: { 'x-api-key': server.key }, signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await reader.read().catch(() => undefined);
    // The service goes on: the run can be deleted (its database closed) and the other endpoints answer.
    const deleted = await server.call('/analysis/archive', { method: 'DELETE', body: { hashes: [fileHash] } });
    expect(deleted.json).to.deep.equal({ deleted: [fileHash] });
    expect(existsSync(join(server.dataDir, 'runs', `${latestIngestRunId}.sqlite`))).to.equal(false);
    expect((await server.call('/health')).status).to.equal(200);
  });
});
