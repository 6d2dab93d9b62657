import { expect } from 'chai';
import { Store, touchRecentSource } from '@klvscope/core/store';
import { startTestServer, tempDataDir, type CallResult, type TestServer } from './test-server.js';

interface Source {
  id: string;
  kind: string;
  source: string;
  lastUsedAt: string;
}

const USED = Date.parse('2026-03-01T12:00:00.000Z');

function errorOf(result: CallResult): { code: string; details?: unknown } {
  return (result.json as { error: { code: string; details?: unknown } }).error;
}

describe('inspection service recent sources', function () {
  let dataDir: string;
  let server: TestServer;

  beforeEach(async () => {
    // File sessions add to the list; here the catalog is filled before the service opens it.
    dataDir = tempDataDir();
    const store = await Store.open({ dataDir });
    touchRecentSource(store.catalog.db, 'file', '/rec/flight-1.ts', USED);
    touchRecentSource(store.catalog.db, 'udp', 'udp://239.1.1.1:5000', USED + 60_000);
    touchRecentSource(store.catalog.db, 'serial', '/dev/ttyUSB0', USED - 60_000);
    await store.saveCatalog();
    await store.close();
    server = await startTestServer({ dataDir });
  });
  afterEach(async () => {
    await server.close();
  });

  const list = async (): Promise<Source[]> => ((await server.call('/sources/recent')).json as { sources: Source[] }).sources;

  it('lists the recent sources, most recently used first', async () => {
    const result = await server.call('/sources/recent');
    expect(result.status).to.equal(200);
    const sources = (result.json as { sources: Source[] }).sources;
    expect(sources.map(({ kind, source, lastUsedAt }) => ({ kind, source, lastUsedAt }))).to.deep.equal([
      { kind: 'udp', source: 'udp://239.1.1.1:5000', lastUsedAt: '2026-03-01T12:01:00.000Z' },
      { kind: 'file', source: '/rec/flight-1.ts', lastUsedAt: '2026-03-01T12:00:00.000Z' },
      { kind: 'serial', source: '/dev/ttyUSB0', lastUsedAt: '2026-03-01T11:59:00.000Z' },
    ]);
    for (const source of sources) expect(source.id).to.match(/^[1-9]\d*$/);
  });

  it('removes one entry (204), for good: gone after a restart too', async () => {
    const [, file] = await list();
    const removed = await server.call(`/sources/${file.id}`, { method: 'DELETE' });
    expect(removed.status).to.equal(204);
    expect(removed.text).to.equal('');
    expect((await list()).map((s) => s.source)).to.deep.equal(['udp://239.1.1.1:5000', '/dev/ttyUSB0']);
    await server.close();
    server = await startTestServer({ dataDir });
    expect((await list()).map((s) => s.source)).to.deep.equal(['udp://239.1.1.1:5000', '/dev/ttyUSB0']);
  });

  it('answers 404 for an id that names no source, or cannot name one, and removes nothing', async () => {
    const [first] = await list();
    await server.call(`/sources/${first.id}`, { method: 'DELETE' });
    for (const id of [first.id, '999', '0', '-1', '1.5', 'abc', '01', '99999999999999999999']) {
      const result = await server.call(`/sources/${id}`, { method: 'DELETE' });
      expect(result.status, id).to.equal(404);
      expect(errorOf(result), id).to.deep.equal({ code: 'ERR_SOURCE_NOT_FOUND', message: `no recent source with id '${id}'`, details: { id } });
    }
    expect(await list()).to.have.length(2);
  });

  it('needs the API key', async () => {
    const [first] = await list();
    expect((await server.call('/sources/recent', { key: null })).status).to.equal(401);
    expect((await server.call(`/sources/${first.id}`, { method: 'DELETE', key: null })).status).to.equal(401);
    expect(await list()).to.have.length(3);
  });
});
