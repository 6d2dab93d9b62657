/**
 * The browse roots added and removed from the files page (headless Chromium,
 * a real service): what the page does is what REST then lists, the other
 * roots kept (a PATCH replaces the list whole), and a refused path is said at
 * the field with nothing changed.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { saveScreenshot } from '../../test-support/chromium.js';
import { openSignedIn } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';

describe('the dashboard files page: browse roots (headless Chromium)', function () {
  this.timeout(60_000);
  const suite = dashboardSuite(() => undefined, { width: 1440, height: 700 });
  const extra = realpathSync(mkdtempSync(join(tmpdir(), 'klvscope-extra-root-')));
  after(() => rmSync(extra, { recursive: true, force: true }));

  const listedRoots = async () => (await suite.service.api<{ roots: Array<{ path: string }> }>('GET', '/system/file-browse/roots')).roots.map((root) => root.path);

  it('adds a root from the page and removes it again, keeping the others', async () => {
    const page = await openSignedIn(suite.session, suite.service);
    await page.waitForSelector('button.browse-root');
    const before = await listedRoots();
    await page.fill('form.add-root input', extra);
    await page.click('form.add-root button');
    await page.waitForSelector(`button.browse-root[data-path="${extra}"]`);
    expect(await listedRoots()).to.deep.equal([...before, extra]);
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 700 });
      await saveScreenshot(page, `dashboard-browse-roots-${width}`);
    }
    await page.click(`.browse-root-item[data-path="${extra}"] button.remove-root`);
    await page.waitForFunction(`document.querySelector('button.browse-root[data-path="${extra}"]') === null`);
    expect(await listedRoots()).to.deep.equal(before);
    await page.close();
  });

  it('shows the service refusal of a relative path at the field, and changes nothing', async () => {
    const page = await openSignedIn(suite.session, suite.service);
    await page.waitForSelector('button.browse-root');
    const before = await listedRoots();
    await page.fill('form.add-root input', 'relative/folder');
    await page.click('form.add-root button');
    await page.waitForSelector('.browse-roots .error');
    expect(await page.textContent('.browse-roots .error')).to.match(/browseRoots/);
    expect(await listedRoots()).to.deep.equal(before);
    await page.close();
  });
});
