/* eslint-disable @typescript-eslint/no-unsafe-member-access -- JSON answers are read loosely: the assertions check their values */
/**
 * The relay console's files at the relay's `/`: answered without the key
 * (they hold no data), one path segment only so /api stays the API's; the
 * key check the console signs in with; the sign-in URL the banner prints.
 * The page itself is driven in Chromium by web/test/relay-console.test.ts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { fastify } from 'fastify';
import { buildWeb, relayConsoleDistDir } from '@klvscope/web/build';
import { consoleSignInUrl, relayBanner } from '../../src/cli/relay-command.js';
import { installErrorHandling } from '../../src/http/error-response.js';
import { installConsolePage } from '../../src/relay/console-page.js';
import { TEST_KEY, relayForSuite } from './relay-test-server.js';

describe('relay: the console at /', function () {
  this.timeout(30_000);
  // Built before the relay starts, which reads the folder once.
  before(() => buildWeb());
  const relay = relayForSuite();

  it('serves the built console at / and its files without the key', async () => {
    const page = await fetch(`${relay.server.url}/`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(await page.text()).to.equal(await readFile(join(relayConsoleDistDir, 'index.html'), 'utf8'));
    const script = await fetch(`${relay.server.url}/relay-console.js`);
    expect(script.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    expect(Buffer.from(await script.arrayBuffer()).equals(await readFile(join(relayConsoleDistDir, 'relay-console.js')))).to.equal(true);
  });

  it('answers a file it does not have, and every /api path, as before: the JSON error body', async () => {
    const missing = await fetch(`${relay.server.url}/nothing-here.js`);
    expect(missing.status).to.equal(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).to.equal('ERR_ROUTE_NOT_FOUND');
    const unknownApi = await relay.client.get('/no-such-route');
    expect(unknownApi.status).to.equal(404);
    expect(unknownApi.body.error.code).to.equal('ERR_ROUTE_NOT_FOUND');
    expect((await relay.client.get('/platforms')).status).to.equal(200);
    expect((await fetch(`${relay.server.url}/api/docs/`)).status).to.equal(200);
  });

  it('checks the key at GET /api/auth/status, even on loopback where other reads are open', async () => {
    expect((await relay.client.request('GET', '/auth/status', undefined, null)).body.error.code).to.equal('ERR_API_KEY_MISSING');
    const wrong = await relay.client.request('GET', '/auth/status', undefined, 'not-the-key-0123456789');
    expect(wrong.status).to.equal(401);
    expect(wrong.body.error.code).to.equal('ERR_API_KEY_WRONG');
    const right = await relay.client.request('GET', '/auth/status');
    expect(right.status).to.equal(200);
    expect(right.body).to.deep.equal({ authEnabled: true, authenticated: true, header: 'X-API-Key', keySource: 'option', keyFile: null });
  });

  it('says how to build the console when it is not built', async () => {
    const app = fastify();
    installErrorHandling(app);
    installConsolePage(app, null);
    const answer = await app.inject({ method: 'GET', url: '/' });
    expect(answer.statusCode).to.equal(404);
    expect(answer.json<{ error: { code: string; message: string } }>().error).to.deep.equal({
      code: 'ERR_ROUTE_NOT_FOUND',
      message: "the relay console is not built: run 'npm run build' (it makes web/dist/relay-console); the API's docs page is at /api/docs/",
    });
  });

  it('prints the key only to a terminal: elsewhere (a service log) the console address without the key', () => {
    const logged = relayBanner(relay.server, false);
    expect(logged).to.not.include(TEST_KEY);
    expect(logged).to.include(`  console    ${relay.server.url}/  (sign in with the API key)\n`);
  });

  it('prints the sign-in URL to a terminal: the key in the fragment, encoded so the page reads it back whole', () => {
    expect(relayBanner(relay.server, true)).to.include(`  console    ${relay.server.url}/#key=${TEST_KEY}  `);
    const key = 'a#b&c=d+e/f%g';
    const url = new URL(consoleSignInUrl({ url: 'http://127.0.0.1:5173', apiKey: { value: key, source: 'environment', filePath: null, created: false } }));
    expect(url.pathname).to.equal('/');
    // What the page does with the fragment (web/src/dashboard/api-key-session.ts, which the console shares).
    expect(decodeURIComponent(/^#key=([^&]*)/.exec(url.hash)![1])).to.equal(key);
  });
});
