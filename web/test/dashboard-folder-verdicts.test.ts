/**
 * The files page's verdict list of a folder (headless Chromium, the real
 * inspection service): a folder of generated recordings, one with a PCR gap
 * injected, each inspected in turn; the list shows each file's verdict and
 * counts as its report (REST) has them, the faulty one first, with progress
 * that only grows to the folder's count, and a row opens that file's report.
 * The archive panel of the same page lists each file as its job ends, with
 * no reload of the page.
 */
import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { saveScreenshot } from '../../test-support/chromium.js';
import { openSignedIn } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';
import type { GeneratedRecording } from './generated-recordings.js';

interface Report {
  verdict: 'pass' | 'warn' | 'fail';
  checks: Array<{ summary: { verdict: string } }>;
  problemKinds: Array<{ line: string }>;
}

describe('the verdict of every recording of a folder (headless Chromium)', function () {
  this.timeout(120_000);
  let folder: string;
  let faulty: GeneratedRecording;
  let clean: GeneratedRecording[];
  const suite = dashboardSuite((recordings) => {
    mkdirSync(join(recordings.root, 'sortie-7'));
    folder = join(recordings.root, 'sortie-7');
    clean = [
      recordings.write(join('sortie-7', 'a-clean.ts'), { bitrate: 2_000_000, seed: 11, durationSeconds: 3, klv: { carriage: 'sync' } }),
      recordings.write(join('sortie-7', 'b-clean.ts'), { bitrate: 2_000_000, seed: 12, durationSeconds: 3, klv: { carriage: 'sync' } }),
    ];
    faulty = recordings.write(join('sortie-7', 'c-pcr-gap.ts'), { bitrate: 2_000_000, seed: 13, durationSeconds: 3, klv: { carriage: 'sync' }, faults: ['pcr-gap@1.5'] });
  });

  it('lists each file with its report\'s verdict and counts, the faulty one first, with growing progress; a row opens the report', async () => {
    const page = await openSignedIn(suite.session, suite.service);
    await page.waitForSelector(`button.browse-root[data-path="${suite.recordings.root}"]`);
    await page.click(`button.browse-root[data-path="${suite.recordings.root}"]`);
    await page.click('tr.entry[data-kind="folder"] a.open-folder');
    await page.waitForSelector(`.folder[data-path="${folder}"] button.inspect-folder`);
    expect(await page.textContent('button.inspect-folder')).to.contain('(3)');
    const archived = () => page.evaluate<string[]>(`[...document.querySelectorAll('tr.archive-entry')].map((row) => row.dataset.path).sort()`);
    await page.waitForSelector('.archive .empty');
    expect(await archived(), 'the archive before the verdicts').to.deep.equal([]);
    // Every "done" count the list shows, in order.
    await page.evaluate(`(() => {
      window.doneSeen = [];
      new MutationObserver(() => {
        const list = document.querySelector('.folder-verdicts');
        const done = list === null || list.dataset.total === '0' ? null : Number(list.dataset.done);
        if (done !== null && window.doneSeen[window.doneSeen.length - 1] !== done) window.doneSeen.push(done);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-done'] });
    })()`);
    const startedAt = Date.now();
    await page.click('button.inspect-folder');
    await page.waitForSelector('.verdicts-progress progress');
    await page.waitForFunction("document.querySelector('.folder-verdicts').dataset.done === '3'", undefined, { timeout: 90_000 });
    console.log(`      3 recordings inspected and listed in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    expect(await page.evaluate('window.doneSeen')).to.deep.equal([0, 1, 2, 3]);
    // Issue 36: the archive still showed its old list until the page was reloaded.
    const all = [faulty, ...clean].map((file) => file.path).sort();
    await page.waitForFunction(`document.querySelectorAll('tr.archive-entry').length === 3`, undefined, { timeout: 10_000 });
    expect(await archived()).to.deep.equal(all);
    expect(await page.textContent('.verdicts-progress')).to.contain('3 of 3 inspected');

    const rows = await page.evaluate<Array<{ path: string; verdict: string; failing: string; warning: string; worst: string }>>(
      `[...document.querySelectorAll('tr.file-verdict')].map((row) => ({ path: row.dataset.path, verdict: row.dataset.verdict, failing: row.querySelector('[data-field=failing-checks]').textContent, warning: row.querySelector('[data-field=warning-checks]').textContent, worst: row.querySelector('.worst-problem').textContent }))`,
    );
    expect(rows.map((row) => row.path)[0]).to.equal(faulty.path);
    expect(rows.map((row) => row.path).slice(1).sort()).to.deep.equal(clean.map((file) => file.path).sort());
    for (const row of rows) {
      const { report } = await suite.service.api<{ report: Report }>('POST', '/analysis/archive/lookup', { filePath: row.path });
      expect(row.verdict, row.path).to.equal(report.verdict);
      expect(row.failing, row.path).to.equal(String(report.checks.filter((check) => check.summary.verdict === 'fail').length));
      expect(row.warning, row.path).to.equal(String(report.checks.filter((check) => check.summary.verdict === 'warn').length));
      expect(row.worst, row.path).to.equal(report.problemKinds[0]?.line ?? 'none');
    }
    expect(rows[0].verdict).to.equal('fail');
    expect(Number(rows[0].failing)).to.be.greaterThan(0);
    expect(rows[0].worst).to.match(/PCR/);
    await saveScreenshot(page, 'dashboard-folder-verdicts');
    await page.locator('.archive').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'dashboard-folder-verdicts-archive');

    await page.click(`tr.file-verdict[data-path="${faulty.path}"] a`);
    await page.waitForFunction(`window.location.hash === ${JSON.stringify(`#/report?${new URLSearchParams({ file: faulty.path }).toString()}`)}`);
    await page.waitForSelector('.problem-kinds', { timeout: 30_000 });
    await page.close();
  });
});
