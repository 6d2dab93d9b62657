/**
 * Signing in to the dashboard in headless Chromium, against the real
 * inspection service: the sign-in URL's key is taken from the fragment and
 * removed from the address bar at once; without a key, or with a wrong one,
 * the page shows the sign-in form and asks for no data.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { chromiumUnavailableReason, launchChromium, saveScreenshot, type ChromiumSession } from '../../test-support/chromium.js';
import { startDashboardService, TEST_API_KEY, type DashboardService } from './dashboard-page-driver.js';

/** Every /api/v1 request the page made, with whether it carried a key. */
function recordApiRequests(page: Page): Array<{ url: string; key: string | undefined }> {
  const seen: Array<{ url: string; key: string | undefined }> = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/')) seen.push({ url: request.url(), key: request.headers()['x-api-key'] });
  });
  return seen;
}

describe('the dashboard sign-in (headless Chromium)', function () {
  this.timeout(60_000);
  let session: ChromiumSession;
  let service: DashboardService;

  before(async function () {
    const reason = chromiumUnavailableReason();
    if (reason !== null) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    service = await startDashboardService();
    session = await launchChromium();
  });

  after(async () => {
    await session?.close();
    await service?.close();
  });

  it('is served at / of the inspection service, and serve prints the sign-in URL with the key in the fragment', async () => {
    const response = await fetch(`${service.origin}/`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/html/);
    expect(await response.text()).to.contain('dashboard.js');
    expect(service.server.signInUrl).to.equal(`${service.origin}/#key=${TEST_API_KEY}`);
    const missing = await fetch(`${service.origin}/no-such-file.js`);
    expect(missing.status).to.equal(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).to.equal('ERR_ROUTE_NOT_FOUND');
  });

  it('signs in from the sign-in URL, and the key is gone from the address bar and the history', async () => {
    const page = await session.newPage();
    const requests = recordApiRequests(page);
    await page.goto(service.server.signInUrl);
    await page.waitForSelector('nav.top-nav', { timeout: 10_000 });
    expect(page.url()).to.equal(`${service.origin}/`);
    expect(page.url()).not.to.contain(TEST_API_KEY);
    expect(requests.length).to.be.greaterThan(0);
    expect(requests.every((request) => request.key === TEST_API_KEY && !request.url.includes(TEST_API_KEY))).to.equal(true);
    await saveScreenshot(page, 'dashboard-signed-in');
    // A reload keeps the tab signed in (sessionStorage), still with no key in the URL.
    await page.reload();
    await page.waitForSelector('nav.top-nav', { timeout: 10_000 });
    expect(page.url()).not.to.contain(TEST_API_KEY);
    // The sign-in URL's history entry was replaced: going back leaves the dashboard, never to the key.
    await page.goBack();
    expect(page.url()).to.equal('about:blank');
    await page.close();
  });

  it('shows the sign-in form and asks for no data without a key', async () => {
    const page = await session.newPage();
    const requests = recordApiRequests(page);
    await page.goto(`${service.origin}/`);
    await page.waitForSelector('form.sign-in');
    expect(await page.$('nav.top-nav')).to.equal(null);
    expect(requests).to.deep.equal([]);
    // Both commands that start the service print the sign-in address.
    expect(await page.textContent('form.sign-in p')).to.equal(
      "Sign in with the inspection service's API key: open the address klvscope serve or klvscope start printed, or paste the key from its key file.",
    );
    await saveScreenshot(page, 'dashboard-sign-in');
    await page.close();
  });

  it('refuses a wrong key with the form and a message, shows no data, then accepts the right key pasted', async () => {
    const page = await session.newPage();
    const requests = recordApiRequests(page);
    await page.goto(`${service.origin}/#key=not-the-key`);
    await page.waitForSelector('form.sign-in .error');
    expect(page.url()).not.to.contain('not-the-key');
    expect(await page.$('nav.top-nav')).to.equal(null);
    // The one request: the key check, refused.
    expect(requests.map((request) => new URL(request.url).pathname)).to.deep.equal(['/api/v1/auth/status']);
    expect(await page.textContent('form.sign-in .error')).to.contain('refused');
    await page.fill('form.sign-in input[name=apiKey]', TEST_API_KEY);
    await page.click('form.sign-in button[type=submit]');
    await page.waitForSelector('nav.top-nav');
    expect(page.url()).not.to.contain(TEST_API_KEY);
    await page.close();
  });

  it('signs out back to the form, forgetting the key', async () => {
    const page = await session.newPage();
    await page.goto(service.server.signInUrl);
    await page.click('nav.top-nav .sign-out');
    await page.waitForSelector('form.sign-in');
    await page.reload();
    await page.waitForSelector('form.sign-in');
    expect(await page.evaluate("sessionStorage.getItem('klvscope.apiKey')")).to.equal(null);
    await page.close();
  });
});
