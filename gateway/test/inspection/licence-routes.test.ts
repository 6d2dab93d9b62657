import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { LICENCE_FILE_NAME, NODE_ID_PATTERN, generateVendorKeyPair, issueLicence, publicKeyFingerprint, parseVendorPublicKey, type LicencePayload } from '../../src/licence/index.js';
import { startTestServer, tempDataDir, type CallResult, type TestServer } from './test-server.js';

const vendor = generateVendorKeyPair();
const DAY_MS = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString();

function tokenFor(nodeId: string, overrides: Partial<LicencePayload> = {}): string {
  const now = Date.now();
  return issueLicence({ v: 1, nodeId, licensee: 'ACME Ltd', features: ['live'], issuedAt: iso(now - DAY_MS), expiresAt: iso(now + 365 * DAY_MS), ...overrides }, vendor.privateKeyPem);
}

/** A GET with a Host header of our choosing (fetch does not let one set Host); the status and the licence header. */
function getWithHost(url: string, host: string): Promise<{ status: number; licence: string | string[] | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, licence: res.headers['x-klvscope-licence'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

function errorOf(result: CallResult): { code: string; message: string; details?: Record<string, unknown> } {
  return (result.json as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;
}

describe('inspection service licence endpoints', function () {
  let server: TestServer;
  let nodeId: string;
  const logLines: string[] = [];

  before(async () => {
    server = await startTestServer({ licencePublicKey: vendor.publicKeyPem, log: { level: 'info', stream: { write: (line) => logLines.push(line) } } });
    nodeId = ((await server.call('/config/nodeinfo')).json as { nodeId: string }).nodeId;
  });
  after(async () => {
    await server.close();
  });
  afterEach(async () => {
    await server.call('/config/license', { method: 'DELETE' });
  });

  it('answers the node id the licence must name', async () => {
    const result = await server.call('/config/nodeinfo');
    expect(result.status).to.equal(200);
    expect(Object.keys(result.json as object)).to.deep.equal(['nodeId']);
    expect(nodeId).to.match(NODE_ID_PATTERN);
  });

  it('runs in demo mode without a licence, says so in the status, the details and the header', async () => {
    const status = await server.call('/license');
    expect(status.status).to.equal(200);
    expect(status.json).to.deep.include({ mode: 'demo', status: 'none', licensee: null, features: [], expiresAt: null, nodeId });
    expect((status.json as { reason: string }).reason).to.match(/^no licence installed; demo mode: /);
    expect(status.headers.get('x-klvscope-licence')).to.equal('demo');
    const details = await server.call('/config/license');
    expect(details.json).to.deep.include({ mode: 'demo', installed: false, issuedAt: null });
    expect((details.json as { publicKey: unknown }).publicKey).to.deep.equal({ source: 'configured', fingerprint: publicKeyFingerprint(parseVendorPublicKey(vendor.publicKeyPem)) });
  });

  it('imports a token issued for this node: licensed at once, in the answer, the status and the header', async () => {
    const token = tokenFor(nodeId);
    const imported = await server.call('/license/import', { method: 'POST', body: { token: `${token}\n` } });
    expect(imported.status).to.equal(200);
    expect(imported.json).to.deep.include({ mode: 'licensed', status: 'valid', licensee: 'ACME Ltd', features: ['live'], nodeId });
    expect(imported.headers.get('x-klvscope-licence')).to.equal('licensed');
    expect(existsSync(join(server.dataDir, LICENCE_FILE_NAME))).to.equal(true);
    const details = await server.call('/config/license');
    expect(details.json).to.deep.include({ mode: 'licensed', installed: true });
    expect(details.text).to.not.include(token);
    expect((await server.call('/health', { key: null })).headers.get('x-klvscope-licence')).to.equal('licensed');
  });

  it('imports through POST /config/license too, answering the details', async () => {
    const result = await server.call('/config/license', { method: 'POST', body: { token: tokenFor(nodeId, { features: [] }) } });
    expect(result.status).to.equal(200);
    expect(result.json).to.deep.include({ mode: 'licensed', installed: true, features: [] });
    expect(result.json).to.have.property('publicKey');
  });

  it('refuses a token for another node or an expired one with 422, keeping the licence installed before', async () => {
    await server.call('/license/import', { method: 'POST', body: { token: tokenFor(nodeId) } });
    const otherNode = await server.call('/license/import', { method: 'POST', body: { token: tokenFor('node-0123456789abcdef0123456789abcdef') } });
    expect(otherNode.status).to.equal(422);
    expect(errorOf(otherNode).code).to.equal('ERR_LICENCE_INVALID');
    expect(errorOf(otherNode).details).to.include({ status: 'wrong-node' });
    const now = Date.now();
    const expired = await server.call('/config/license', { method: 'POST', body: { token: tokenFor(nodeId, { issuedAt: iso(now - 30 * DAY_MS), expiresAt: iso(now - DAY_MS) }) } });
    expect(expired.status).to.equal(422);
    expect(errorOf(expired).details).to.include({ status: 'expired' });
    const forged = await server.call('/license/import', { method: 'POST', body: { token: issueLicence({ v: 1, nodeId, licensee: 'X', features: [], issuedAt: iso(now), expiresAt: null }, generateVendorKeyPair().privateKeyPem) } });
    expect(errorOf(forged).details).to.include({ status: 'bad-signature' });
    expect((await server.call('/license')).json).to.deep.include({ mode: 'licensed', licensee: 'ACME Ltd' });
  });

  it('refuses a body that is not { token } with 400', async () => {
    for (const body of [{}, { token: '' }, { token: 42 }, { token: 'klv1.a.b', extra: true }]) {
      const result = await server.call('/license/import', { method: 'POST', body });
      expect(result.status, JSON.stringify(body)).to.equal(400);
      expect(errorOf(result).code).to.equal('ERR_INVALID_FIELD');
    }
  });

  it('removes the licence: back to demo mode; removing again says there was none', async () => {
    await server.call('/license/import', { method: 'POST', body: { token: tokenFor(nodeId) } });
    const removed = await server.call('/config/license', { method: 'DELETE' });
    expect(removed.status).to.equal(200);
    expect(removed.json).to.deep.include({ removed: true, mode: 'demo', status: 'none', installed: false });
    expect(removed.headers.get('x-klvscope-licence')).to.equal('demo');
    expect(existsSync(join(server.dataDir, LICENCE_FILE_NAME))).to.equal(false);
    expect((await server.call('/config/license', { method: 'DELETE' })).json).to.deep.include({ removed: false, mode: 'demo' });
  });

  it('puts the header on errors too: 401, 404 and 400 answers', async () => {
    const answers = [await server.call('/license', { key: null }), await server.call('/license', { key: 'x'.repeat(43) }), await server.call('/no-such-route'), await server.call('/license/import', { method: 'POST', body: '{' })];
    expect(answers.map((a) => a.status)).to.deep.equal([401, 401, 404, 400]);
    for (const answer of answers) expect(answer.headers.get('x-klvscope-licence')).to.equal('demo');
  });

  it('puts the header on refusals made before any route: a foreign Host, an oversized body, a bad URL escape', async () => {
    expect(await getWithHost(`${server.url}/health`, 'attacker.example')).to.deep.equal({ status: 403, licence: 'demo' });
    const oversized = await server.call('/license/import', { method: 'POST', body: { token: 'x'.repeat(2 * 1024 * 1024) } });
    expect([oversized.status, oversized.headers.get('x-klvscope-licence')]).to.deep.equal([413, 'demo']);
    const badEscape = await server.call('/sources/%E0%A4%A');
    expect([badEscape.status, badEscape.headers.get('x-klvscope-licence')]).to.deep.equal([400, 'demo']);
  });

  it('needs the API key on every licence endpoint', async () => {
    for (const [method, path] of [['GET', '/license'], ['POST', '/license/import'], ['GET', '/config/nodeinfo'], ['GET', '/config/license'], ['POST', '/config/license'], ['DELETE', '/config/license']]) {
      const result = await server.call(path, { method, key: null, body: method === 'POST' ? { token: tokenFor(nodeId) } : undefined });
      expect(result.status, `${method} ${path}`).to.equal(401);
    }
    expect((await server.call('/license')).json).to.deep.include({ mode: 'demo' });
  });

  it('logs the mode at start and after each install and removal', async () => {
    const modes = (): Array<{ level: number; licenceMode: string; msg: string }> =>
      logLines.map((line) => JSON.parse(line) as { level: number; licenceMode?: string; msg: string }).filter((entry): entry is { level: number; licenceMode: string; msg: string } => entry.licenceMode !== undefined);
    expect(modes()[0]).to.deep.include({ level: 40, licenceMode: 'demo' });
    logLines.length = 0;
    await server.call('/license/import', { method: 'POST', body: { token: tokenFor(nodeId) } });
    await server.call('/config/license', { method: 'DELETE' });
    expect(modes().map((entry) => [entry.level, entry.licenceMode])).to.deep.equal([
      [30, 'licensed'],
      [40, 'demo'],
    ]);
    expect(modes()[0].msg).to.match(/^licence: licensed to ACME Ltd, valid until \d{4}-/);
    expect(modes()[1].msg).to.match(/^licence: no licence installed; demo mode: /);
  });

  it('keeps an imported licence across a restart', async () => {
    const dataDir = tempDataDir();
    const first = await startTestServer({ dataDir, licencePublicKey: vendor.publicKeyPem });
    const id = ((await first.call('/config/nodeinfo')).json as { nodeId: string }).nodeId;
    await first.call('/license/import', { method: 'POST', body: { token: tokenFor(id) } });
    await first.close();
    const second = await startTestServer({ dataDir, licencePublicKey: vendor.publicKeyPem });
    try {
      expect((await second.call('/config/nodeinfo')).json).to.deep.equal({ nodeId: id });
      const status = await second.call('/license');
      expect(status.json).to.deep.include({ mode: 'licensed', licensee: 'ACME Ltd' });
      expect(status.headers.get('x-klvscope-licence')).to.equal('licensed');
    } finally {
      await second.close();
    }
  });
});
