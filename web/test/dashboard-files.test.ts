/**
 * The files page in headless Chromium, against a real inspection service
 * whose browse root is a folder of generated recordings: the roots, folders
 * and files (with sizes) equal the file-browse endpoints; an inspection runs
 * with a progress bar that only grows and reaches 100 %, then opens the
 * report; the recent sources and the archive equal their endpoints, and
 * removing or deleting on the page removes on the service.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { artifactsDir, saveScreenshot } from '../../test-support/chromium.js';
import { openSignedIn } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';
import type { GeneratedRecording } from './generated-recordings.js';

interface RestEntry {
  name: string;
  path: string;
  kind: string;
  size: number | null;
}

/** Each element's data-* attributes (a row's, a cell's), as the page shows them. */
async function rowData(page: Page, rowSelector: string): Promise<Array<Record<string, string>>> {
  return page.evaluate(`[...document.querySelectorAll(${JSON.stringify(rowSelector)})].map((row) => ({ ...row.dataset }))`);
}

/** Every value the progress bar takes, recorded in the page as it changes (a MutationObserver), until the page leaves the files route. */
async function recordProgressValues(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.progressSeen = [];
    new MutationObserver(() => {
      const bar = document.querySelector('.inspection-bar');
      const value = bar === null ? '' : bar.getAttribute('data-percent');
      if (value !== '' && window.progressSeen[window.progressSeen.length - 1] !== Number(value)) window.progressSeen.push(Number(value));
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-percent'] });
  })()`);
}

describe('the dashboard files page (headless Chromium)', function () {
  this.timeout(90_000);
  let small: GeneratedRecording;
  let large: GeneratedRecording;
  const suite = dashboardSuite((recordings) => {
    mkdirSync(join(recordings.root, 'flight-2026-03-01'));
    small = recordings.write(join('flight-2026-03-01', 'orbit-2.ts'), { bitrate: 2_000_000, seed: 3, durationSeconds: 2, klv: { carriage: 'sync' } });
    recordings.write(join('flight-2026-03-01', 'orbit-10.ts'), { bitrate: 2_000_000, seed: 4, durationSeconds: 1 });
    writeFileSync(join(recordings.root, 'flight-2026-03-01', 'notes.txt'), 'notes\n');
    // 200 MB (generated in under a second): the inspection lasts several of the page's 200 ms polls even on a
    // fast machine, so that a poll sees the bar partly done (a 40 MB file could finish between two polls).
    large = recordings.write('long-flight.ts', { bitrate: 8_000_000, seed: 7, durationSeconds: 200, klv: { carriage: 'sync' } });
  });

  it('lists the browse roots, and a folder\'s folders and files with their sizes as the service does; into a folder and back up', async () => {
    const page = await openSignedIn(suite.session, suite.service);
    const roots = await suite.service.api<{ roots: Array<{ path: string }> }>('GET', '/system/file-browse/roots');
    await page.waitForSelector('button.browse-root');
    expect(await rowData(page, 'button.browse-root')).to.deep.equal(roots.roots.map((root) => ({ path: root.path })));

    await page.click(`button.browse-root[data-path="${suite.recordings.root}"]`);
    await page.waitForSelector(`.folder[data-path="${suite.recordings.root}"]`);
    const top = await suite.service.api<{ entries: RestEntry[] }>('POST', '/system/file-browse/entries', { path: suite.recordings.root });
    expect(await rowData(page, 'tr.entry')).to.deep.equal(top.entries.map((entry) => ({ path: entry.path, kind: entry.kind })));
    expect(await page.isDisabled('.folder button.up')).to.equal(true);

    await page.click('tr.entry[data-kind="folder"] a.open-folder');
    const folder = join(suite.recordings.root, 'flight-2026-03-01');
    await page.waitForSelector(`.folder[data-path="${folder}"]`);
    const inner = await suite.service.api<{ entries: RestEntry[] }>('POST', '/system/file-browse/entries', { path: folder });
    // Numbers compared as numbers: orbit-2 before orbit-10, as the service sorts.
    expect(inner.entries.map((entry) => entry.name)).to.deep.equal(['notes.txt', 'orbit-2.ts', 'orbit-10.ts']);
    expect(await rowData(page, 'tr.entry')).to.deep.equal(inner.entries.map((entry) => ({ path: entry.path, kind: entry.kind })));
    const sizes = await rowData(page, 'tr.entry td[data-size]');
    expect(sizes).to.deep.equal(inner.entries.map((entry) => ({ size: String(entry.size) })));
    expect(await page.textContent(`tr.entry[data-path="${small.path}"] td.number`)).to.equal(`${(small.size / 1000).toPrecision(3)} kB`);
    // Only transport streams have an Inspect button.
    expect(await page.locator('tr.entry button.inspect').count()).to.equal(2);
    await saveScreenshot(page, 'dashboard-files-folder');

    await page.click('.folder button.up');
    await page.waitForSelector(`.folder[data-path="${suite.recordings.root}"]`);
    await page.close();
  });

  it('inspects a large file with a progress bar that only grows and reaches 100 %, then opens its report', async () => {
    const page = await openSignedIn(suite.session, suite.service);
    await page.click(`button.browse-root[data-path="${suite.recordings.root}"]`);
    await page.waitForSelector(`tr.entry[data-path="${large.path}"]`);
    await recordProgressValues(page);
    expect(large.size).to.be.greaterThan(150_000_000);
    // The page's polls pass through unchanged, except that once one says the job is under way, the next ones wait until the screenshot is taken.
    let midway = false;
    let screenshotTaken!: () => void;
    const taken = new Promise<void>((resolve) => (screenshotTaken = resolve));
    await page.route('**/api/v1/process/file/jobs/*', async (route) => {
      if (midway) await taken;
      const response = await route.fetch();
      const job = (await response.json()) as { status: string; progress: { bytesDone: number; bytesTotal: number | null } };
      // Only a poll the bar shows as partly done (over 0 %) holds the next ones: one at 0 % would leave the bar at 0 and the wait below could never end.
      if (job.status === 'running' && job.progress.bytesTotal !== null && job.progress.bytesDone > 0 && job.progress.bytesDone < 0.8 * job.progress.bytesTotal) midway = true;
      await route.fulfill({ response });
    });
    await page.click(`tr.entry[data-path="${large.path}"] button.inspect`);
    await page.waitForFunction(`(() => { const bar = document.querySelector('.inspection[data-status="running"] .inspection-bar'); return bar !== null && Number(bar.dataset.percent) > 0 && Number(bar.dataset.percent) < 100; })()`, undefined, { timeout: 20_000 });
    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, 'dashboard-files-inspecting.png') });
    screenshotTaken();
    await page.waitForSelector('.report-page[data-state="ready"]', { timeout: 60_000 });
    expect(new URL(page.url()).hash).to.equal(`#/report?${new URLSearchParams({ file: large.path }).toString()}`);
    const seen = await page.evaluate<number[]>('window.progressSeen');
    expect(seen.length).to.be.greaterThan(1);
    expect(seen.some((percent) => percent < 100)).to.equal(true);
    expect(seen.every((percent, index) => index === 0 || percent >= seen[index - 1])).to.equal(true);
    expect(seen[seen.length - 1]).to.equal(100);
    await page.close();
  });

  it('shows the recent sources and the archive as the service does; removes a source and deletes an entry on the service', async () => {
    // A file session adds its file to the recent sources (docs/rest.md).
    await suite.service.api('POST', '/automation/file-session', { filePath: small.path });
    await suite.service.api('DELETE', '/sessions/active');
    const page = await openSignedIn(suite.session, suite.service);
    const recent = await suite.service.api<{ sources: Array<{ id: string; source: string }> }>('GET', '/sources/recent');
    expect(recent.sources.map((source) => source.source)).to.include(small.path);
    await page.waitForSelector('tr.recent-source');
    expect(await rowData(page, 'tr.recent-source')).to.deep.equal(recent.sources.map((source) => ({ id: source.id, source: source.source })));

    const archive = await suite.service.api<{ entries: Array<{ hash: string; firstPath: string }> }>('GET', '/analysis/archive');
    expect(archive.entries.length).to.be.greaterThan(0);
    await page.waitForSelector('tr.archive-entry');
    expect(await rowData(page, 'tr.archive-entry')).to.deep.equal(archive.entries.map((entry) => ({ hash: entry.hash, path: entry.firstPath })));
    await page.click(`button.browse-root[data-path="${suite.recordings.root}"]`);
    await page.waitForSelector(`tr.entry[data-path="${large.path}"]`);
    await saveScreenshot(page, 'dashboard-files');

    const removed = recent.sources.find((source) => source.source === small.path);
    await page.click(`tr.recent-source[data-id="${removed?.id}"] button.remove`);
    await page.waitForSelector(`tr.recent-source[data-id="${removed?.id}"]`, { state: 'detached' });
    expect((await suite.service.api<{ sources: Array<{ id: string }> }>('GET', '/sources/recent')).sources.map((source) => source.id)).to.not.include(removed?.id);

    const deleted = archive.entries[0];
    await page.click(`tr.archive-entry[data-hash="${deleted.hash}"] button.delete`);
    await page.waitForSelector(`tr.archive-entry[data-hash="${deleted.hash}"]`, { state: 'detached' });
    expect((await suite.service.api<{ entries: Array<{ hash: string }> }>('GET', '/analysis/archive')).entries.map((entry) => entry.hash)).to.not.include(deleted.hash);
    await page.close();
  });

  it('opens a report from the archive', async () => {
    await suite.service.api('POST', '/analysis/file', { filePath: small.path });
    const page = await openSignedIn(suite.session, suite.service);
    await page.click(`tr.archive-entry[data-path="${small.path}"] a.open-report`);
    await page.waitForSelector('.report-page');
    expect(new URL(page.url()).hash).to.equal(`#/report?${new URLSearchParams({ file: small.path }).toString()}`);
    await page.close();
  });

  it('says at the field why a typed path cannot be opened: outside the roots, or no such file', async () => {
    const page = await openSignedIn(suite.session, suite.service);
    await page.fill('.path-form input[name=path]', '/etc');
    await page.click('.path-form button[type=submit]');
    await page.waitForSelector('.path-form .error');
    expect(await page.textContent('.path-form .error')).to.contain('ERR_FILE_OUTSIDE_ROOTS');
    expect(await page.getAttribute('.path-form input[name=path]', 'aria-invalid')).to.equal('true');
    await page.fill('.path-form input[name=path]', join(suite.recordings.root, 'no-such-flight.ts'));
    await page.click('.path-form button[type=submit]');
    await page.waitForFunction(`document.querySelector('.path-form .error')?.textContent.includes('ERR_FILE_NOT_FOUND')`);
    // A file that is not a transport stream is checked, and its problem said, with no Inspect button.
    await page.fill('.path-form input[name=path]', join(suite.recordings.root, 'flight-2026-03-01', 'notes.txt'));
    await page.click('.path-form button[type=submit]');
    await page.waitForSelector('.typed-file .error');
    expect(await page.textContent('.typed-file .error')).to.contain('ERR_NOT_TRANSPORT_STREAM');
    expect(await page.$('.typed-file button.inspect')).to.equal(null);
    await saveScreenshot(page, 'dashboard-files-typed-path-errors');
    await page.close();
  });
});

