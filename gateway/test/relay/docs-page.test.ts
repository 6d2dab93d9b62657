/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-assignment -- JSON answers are read loosely: the assertions check their values */
/**
 * The docs page in headless Chromium (Debian's, no network): the page
 * renders Swagger UI from our own files and lists every operation of the
 * OpenAPI document, which is itself a valid OpenAPI 3.1 document made from
 * the routes. The screenshot is kept for a person to look at.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { launchChromium, saveScreenshot, skipWithoutChromium } from '../../../test-support/chromium.js';
import { RelayClient, makeDataDir, removeDataDir, startTestRelay } from './relay-test-server.js';
import type { RunningRelayServer } from '../../src/relay/start-relay-server.js';


describe('relay: the docs page', function () {
  this.timeout(60_000);
  let dataDir: string;
  let server: RunningRelayServer;
  let client: RelayClient;

  before(async () => {
    dataDir = await makeDataDir();
    ({ server, client } = await startTestRelay(dataDir));
  });

  after(async () => {
    await server?.close();
    await removeDataDir(dataDir);
  });

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
    skipWithoutChromium(this);
    const document = (await client.get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    const browser = await launchChromium({ viewport: { width: 1280, height: 1000 } });
    try {
      const page = await browser.newPage();
      await page.goto(`${server.url}/api/docs/`);
      await page.waitForSelector('.opblock-summary-method', { timeout: 30_000 });
      const listed = await page.$$eval('.opblock', (blocks) =>
        blocks.map((block) => `${block.querySelector('.opblock-summary-method')?.textContent ?? ''} ${block.querySelector('[data-path]')?.getAttribute('data-path') ?? ''}`),
      );
      expect(listed).to.have.members(expected);
      // 36 before issue 32, and GET /events (the console's feed).
      expect(listed.length).to.equal(37);
      expect(await page.textContent('body')).to.include('klvscope channel relay');
      console.log(`      screenshot: ${await saveScreenshot(page, 'relay-docs')}`);
    } finally {
      await browser.close();
    }
  });
});
