import { expect } from 'chai';
import { existsSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Store } from '@klvscope/core/store';
import { inspectionRoutesOf, startInspectionServer } from '../../src/inspection/inspection-server.js';
import { isLoopbackHost } from '../../src/http/loopback-host.js';
import { startTestServer, tempDataDir, type TestServer } from './test-server.js';

/** A concrete path for a route path with parameters. */
function concrete(path: string): string {
  return path.replace(/:[A-Za-z]+/g, 'x');
}

/** A request with a Host header of our choosing (fetch does not let one set Host). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('inspection service security', function () {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('answers health and version without a key', async () => {
    const health = await server.call('/health', { key: null });
    expect(health.status).to.equal(200);
    expect(health.json).to.deep.include({ status: 'ok' });
    const version = await server.call('/version', { key: null });
    expect(version.status).to.equal(200);
    expect(version.json).to.deep.include({ name: 'klvscope', version: '0.1.0', parserVersion: '1.1.1', apiVersion: 'v1', node: process.versions.node });
  });

  it('declares public only health, version, openapi.json and playback (spec "Authentication" 1)', () => {
    const publicRoutes = inspectionRoutesOf(server.app).filter((r) => r.public === true).map((r) => `${r.method} ${r.path}`);
    expect(publicRoutes.sort()).to.deep.equal(['GET /health', 'GET /openapi.json', 'GET /playback/:token', 'GET /version']);
  });

  it('refuses every protected endpoint without the key and with a wrong key: 401 with the error body', async () => {
    const protectedRoutes = inspectionRoutesOf(server.app).filter((r) => r.public !== true);
    expect(protectedRoutes.length).to.be.greaterThan(4);
    for (const route of protectedRoutes) {
      const path = concrete(route.path);
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
      const missing = await server.call(path, { method: route.method, body, key: null });
      expect(missing.status, `${route.method} ${path} without a key`).to.equal(401);
      expect(missing.json).to.deep.equal({
        error: { code: 'ERR_API_KEY_MISSING', message: 'this endpoint needs the X-API-Key header', details: { header: 'X-API-Key', authEnabled: true, authenticated: false } },
      });
      for (const wrong of ['wrong', server.key.slice(0, -1) + (server.key.endsWith('A') ? 'B' : 'A'), `${server.key}x`, server.key.toUpperCase()]) {
        if (wrong === server.key) continue;
        const refused = await server.call(path, { method: route.method, body, key: wrong });
        expect(refused.status, `${route.method} ${path} with key ${wrong}`).to.equal(401);
        expect((refused.json as { error: { code: string } }).error.code).to.equal('ERR_API_KEY_WRONG');
      }
      // Fastify answers HEAD on every GET route: guarded the same.
      if (route.method === 'GET') expect((await server.call(path, { method: 'HEAD', key: null })).status, `HEAD ${path}`).to.equal(401);
    }
  });

  it('answers a protected endpoint with the right key, and says so in /auth/status', async () => {
    const status = await server.call('/auth/status');
    expect(status.status).to.equal(200);
    expect(status.json).to.deep.equal({ authEnabled: true, authenticated: true, header: 'X-API-Key', keySource: 'file', keyFile: join(server.dataDir, 'api-key') });
    expect((await server.call('/config')).status).to.equal(200);
  });

  it('answers a malformed JSON body with 400 ERR_MALFORMED_JSON', async () => {
    const result = await server.call('/config', { method: 'PATCH', body: '{"jobs": {"concurrency": 2' });
    expect(result.status).to.equal(400);
    expect(result.json).to.deep.equal({ error: { code: 'ERR_MALFORMED_JSON', message: 'the request body is not valid JSON' } });
    // An empty body is no body (issue 32): the body this route needs is missing, not malformed.
    const empty = await server.call('/config', { method: 'PATCH', headers: { 'content-type': 'application/json' } });
    expect(empty.status).to.equal(400);
    expect((empty.json as { error: { code: string } }).error.code).to.equal('ERR_INVALID_FIELD');
  });

  it('refuses a JSON body that would set a prototype, as malformed', async () => {
    const result = await server.call('/config', { method: 'PATCH', body: '{"__proto__": {"polluted": true}}' });
    expect(result.status).to.equal(400);
    expect(({} as { polluted?: boolean }).polluted).to.equal(undefined);
  });

  it('answers a body over the limit with 413 ERR_BODY_TOO_LARGE', async () => {
    const big = JSON.stringify({ browseRoots: ['/'.repeat(1024 * 1024)] });
    const result = await server.call('/config', { method: 'PATCH', body: big });
    expect(result.status).to.equal(413);
    expect(result.json).to.deep.equal({ error: { code: 'ERR_BODY_TOO_LARGE', message: 'the request body is over the limit of 1048576 bytes', details: { limitBytes: 1048576 } } });
  });

  it('answers a body that is not JSON with 400 ERR_UNSUPPORTED_MEDIA_TYPE', async () => {
    const result = await server.call('/config', { method: 'PATCH', body: '<jobs/>', headers: { 'content-type': 'application/xml' } });
    expect(result.status).to.equal(400);
    expect((result.json as { error: { code: string } }).error.code).to.equal('ERR_UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers an unknown route with 404 and the error body, with or without a key', async () => {
    for (const key of [undefined, null]) {
      const result = await server.call('/no/such/thing?x=1', { key });
      expect(result.status).to.equal(404);
      expect(result.headers.get('content-type')).to.match(/^application\/json/);
      expect(result.json).to.deep.equal({ error: { code: 'ERR_ROUTE_NOT_FOUND', message: 'no route for GET /api/v1/no/such/thing', details: { method: 'GET', path: '/api/v1/no/such/thing' } } });
    }
    // Outside /api/v1 only the dashboard's own files are served (dashboard-sign-in.test.ts).
    const outside = await fetch(server.url.replace('/api/v1', '/no/such/page'));
    expect(outside.status).to.equal(404);
  });

  it('answers a method the route does not have with 404', async () => {
    const result = await server.call('/health', { method: 'DELETE' });
    expect(result.status).to.equal(404);
    expect((result.json as { error: { code: string } }).error.code).to.equal('ERR_ROUTE_NOT_FOUND');
  });

  it('refuses a Host header that does not name the loopback interface (DNS rebinding), even on public routes', async () => {
    const refused = await getWithHost(`${server.url}/health`, 'attacker.example:38180');
    expect(refused.status).to.equal(403);
    expect(JSON.parse(refused.body)).to.deep.include({ error: { code: 'ERR_HOST_HEADER_REFUSED', message: "the Host header 'attacker.example:38180' does not name the loopback interface: use 127.0.0.1, [::1] or localhost", details: { host: 'attacker.example:38180' } } });
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`, `[::1]:${server.port}`, 'localhost']) {
      expect((await getWithHost(`${server.url}/health`, host)).status, host).to.equal(200);
    }
  });

  it('listens on ::1 as well as 127.0.0.1 where the system has IPv6 loopback', async function () {
    if (server.urls.length < 2) this.skip(); // no ::1 on this machine
    expect(server.urls).to.deep.equal([`http://127.0.0.1:${server.port}/api/v1`, `http://[::1]:${server.port}/api/v1`]);
    const v6 = await fetch(`${server.urls[1]}/auth/status`, { headers: { 'x-api-key': server.key } });
    expect(v6.status).to.equal(200);
    expect((await fetch(`${server.urls[1]}/auth/status`)).status).to.equal(401);
  });
});

describe('inspection service host', function () {
  it('tells loopback hosts from others', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '127.255.255.254', '::1', '[::1]', '0:0:0:0:0:0:0:1', 'localhost', 'LocalHost']) expect(isLoopbackHost(host), host).to.equal(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', '128.0.0.1', 'example.com', 'localhost.example.com', '::2', '', '::ffff:192.168.1.1']) expect(isLoopbackHost(host), host).to.equal(false);
  });

  it('refuses to start on a host that is not loopback, with ERR_HOST_NOT_LOOPBACK, before touching the data folder', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) {
      const dataDir = tempDataDir();
      let refused: unknown;
      try {
        const running = await startInspectionServer({ dataDir, host, port: 0, env: {}, log: { level: 'silent' } });
        await running.close();
      } catch (error) {
        refused = error;
      }
      expect(refused, host).to.be.an('error');
      expect((refused as { code: string }).code).to.equal('ERR_HOST_NOT_LOOPBACK');
      expect((refused as Error).message).to.equal(`refusing to listen on '${host}': the inspection service binds to the loopback interface only (127.0.0.0/8, ::1 or localhost)`);
      expect(readdirSync(dataDir)).to.deep.equal([]);
    }
  });

  it('listens on another 127.x address, on ::1 alone, and on localhost (both loopback addresses)', async function () {
    const other = await startTestServer({ host: '127.0.0.2' });
    try {
      expect(other.urls).to.deep.equal([`http://127.0.0.2:${other.port}/api/v1`]);
      expect((await other.call('/health')).status).to.equal(200);
    } finally {
      await other.close();
    }
    const local = await startTestServer({ host: 'localhost' });
    try {
      expect(local.urls[0]).to.equal(`http://127.0.0.1:${local.port}/api/v1`);
      expect((await local.call('/health')).status).to.equal(200);
    } finally {
      await local.close();
    }
    if (local.urls.length < 2) this.skip(); // no ::1 here
    const v6 = await startTestServer({ host: '::1' });
    try {
      expect(v6.urls).to.deep.equal([`http://[::1]:${v6.port}/api/v1`]);
      expect((await v6.call('/health')).status).to.equal(200);
    } finally {
      await v6.close();
    }
  });

  it('refuses a port in use with ERR_LISTEN_FAILED, and releases the data folder', async () => {
    const first = await startTestServer();
    const dataDir = tempDataDir();
    try {
      let refused: unknown;
      try {
        await startInspectionServer({ dataDir, port: first.port, env: {}, log: { level: 'silent' } });
      } catch (error) {
        refused = error;
      }
      expect((refused as { code: string }).code).to.equal('ERR_LISTEN_FAILED');
      expect((refused as Error).message).to.equal(`cannot listen on 127.0.0.1 port ${first.port}: the port is in use (another klvscope serve?)`);
      const store = await Store.open({ dataDir });
      await store.close();
      expect(existsSync(`${dataDir}/klvscope.lock`)).to.equal(false);
    } finally {
      await first.close();
    }
  });
});
