/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-assignment -- JSON answers are read loosely: the assertions check their values */
/**
 * The docs page in headless Chromium (Debian's, no network): the page
 * renders Swagger UI from our own files and lists every operation of the
 * OpenAPI document, which is itself a valid OpenAPI 3.1 document made from
 * the routes. The screenshot is kept for a person to look at.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { RelayClient, makeDataDir, removeDataDir, startTestRelay } from './relay-test-server.js';
import type { RunningRelayServer } from '../../src/relay/start-relay-server.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const DOCS_SCREENSHOT = join(tmpdir(), 'klvscope-artifacts', 'relay-docs.png');

describe('relay: the docs page', function () {
  this.timeout(60_000);
  let dataDir: string;
  let server: RunningRelayServer;
  let client: RelayClient;
  let profiles: string;

  before(async () => {
    dataDir = await makeDataDir();
    profiles = mkdtempSync(join(tmpdir(), 'klvscope-chromium-'));
    ({ server, client } = await startTestRelay(dataDir));
  });

  after(async () => {
    await server?.close();
    await removeDataDir(dataDir);
    rmSync(profiles, { recursive: true, force: true });
  });

  const chromium = (profile: string, ...args: string[]): Promise<{ stdout: string }> =>
    promisify(execFile)(CHROMIUM, [...FLAGS, `--user-data-dir=${join(profiles, profile)}`, '--virtual-time-budget=15000', ...args], { timeout: 50_000, maxBuffer: 64 * 1024 * 1024 });

  it('serves a valid OpenAPI 3.1 document with every route, the key required on changes only', async () => {
    const document = (await client.get('/openapi.json')).body;
    const result = await new Validator().validate(structuredClone(document) as Parameters<Validator['validate']>[0]);
    expect(result.valid, JSON.stringify(result.errors)).to.equal(true);
    expect(document.paths['/platforms'].get.security).to.equal(undefined);
    expect(document.paths['/platforms'].post.security).to.deep.equal([{ apiKey: [] }]);
    const limit = document.paths['/platforms'].get.parameters.find((p: { name: string }) => p.name === '_limit');
    expect(limit.description).to.match(/1 to 1000 \(default 100\)/);
    expect(document.paths['/platforms'].post.requestBody.content['application/json'].schema.required).to.deep.equal(['name']);
  });

  it('redirects /api/docs to /api/docs/ and serves the page and its files without the key', async () => {
    const response = await fetch(`${server.url}/api/docs`, { redirect: 'manual' });
    expect(response.status).to.equal(301);
    expect(response.headers.get('location')).to.equal('/api/docs/');
    const bundle = await fetch(`${server.url}/api/docs/swagger-ui-bundle.js`);
    expect(bundle.status).to.equal(200);
    expect((await bundle.arrayBuffer()).byteLength).to.be.above(500_000);
    expect((await client.get('/docs/..%2Fplatforms')).status).to.equal(404);
  });

  it('renders in headless Chromium and lists every operation of the document', async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`      skipped: ${CHROMIUM} not installed`);
      this.skip();
    }
    const document = (await client.get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    const { stdout: dom } = await chromium('dom', '--dump-dom', `${server.url}/api/docs/`);
    const listed = [...dom.matchAll(/opblock-summary-method">([A-Z]+)<\/span>.*?data-path="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(listed).to.have.members(expected);
    expect(listed.length).to.equal(32);
    expect(dom).to.include('klvscope channel relay');
    mkdirSync(join(tmpdir(), 'klvscope-artifacts'), { recursive: true });
    await chromium('shot', '--window-size=1280,2000', `--screenshot=${DOCS_SCREENSHOT}`, `${server.url}/api/docs/`);
    expect(statSync(DOCS_SCREENSHOT).size).to.be.above(50_000);
    console.log(`      screenshot: ${DOCS_SCREENSHOT}`);
  });
});
