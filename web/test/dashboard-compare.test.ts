/**
 * The compare page in headless Chromium, against a real inspection service:
 * opened from a report, the second path typed in, it shows what
 * GET /compare answers — every check's verdict and violations for both
 * files, the rows that changed marked — for a recording and the same one
 * with a PCR gap and a KLV checksum error.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../../test-support/chromium.js';
import { openSignedIn } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';
import type { GeneratedRecording } from './generated-recordings.js';

interface ComparedRow {
  key: string | number;
  a: { verdict?: string; violations?: number } | null;
  b: { verdict?: string; violations?: number } | null;
  changed: boolean;
}
interface Comparison {
  checks: ComparedRow[];
  pids: ComparedRow[];
  klv: ComparedRow[];
}

/** Each row's data-* attribute `key`, whether it is marked changed, and its A and B cells. */
async function comparedRows(page: Page, selector: string, key: string): Promise<Array<{ key: string; changed: boolean; cells: string[] }>> {
  return page.evaluate(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((row) => ({
    key: row.dataset[${JSON.stringify(key)}],
    changed: row.classList.contains('changed'),
    cells: [...row.querySelectorAll('td.side-a, td.side-b')].map((cell) => cell.textContent.trim()),
  }))`);
}

describe('the dashboard compare page (headless Chromium)', function () {
  this.timeout(120_000);
  let before: GeneratedRecording;
  let after: GeneratedRecording;
  const recording = { bitrate: 1_500_000, seed: 21, durationSeconds: 4, klv: { carriage: 'sync' as const } };
  const suite = dashboardSuite(
    (recordings) => {
      before = recordings.write('before-link-change.ts', recording);
      after = recordings.write('after-link-change.ts', { ...recording, faults: ['pcr-gap@1.5', 'klv-checksum@2.5'] });
    },
    { width: 1440, height: 900 },
  );

  it('compares a recording with its faulty twin: each check as GET /compare gives it, the changed rows marked', async () => {
    await suite.service.api('POST', '/automation/file-session/inspect', { filePath: before.path });
    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file: before.path }).toString()}`);
    await page.click('.report-header a.compare-with');
    await page.waitForSelector('.compare-form');
    expect(await page.inputValue('.compare-form input[name=a]')).to.equal(before.path);
    await page.fill('.compare-form input[name=b]', after.path);
    await page.click('.compare-form button[type=submit]');
    await page.waitForSelector('.comparison[data-state="loaded"]', { timeout: 60_000 });
    expect(new URL(page.url()).hash).to.equal(`#/compare?${new URLSearchParams({ a: before.path, b: after.path }).toString()}`);

    const rest = await suite.service.api<Comparison>('GET', `/compare?${new URLSearchParams({ a: before.path, b: after.path }).toString()}`);
    const checks = await comparedRows(page, 'tr.compared-check', 'checkId');
    expect(checks.map((row) => row.key)).to.deep.equal(rest.checks.map((row) => row.key));
    expect(checks.map((row) => row.changed)).to.deep.equal(rest.checks.map((row) => row.changed));
    expect(checks.map((row) => row.cells.slice(0, 4))).to.deep.equal(
      rest.checks.map((row) => [row.a?.verdict, row.b?.verdict, String(row.a?.violations), String(row.b?.violations)]),
    );
    // The faults break exactly these checks' verdicts, and B's verdict cell says so.
    const verdictDiffers = await page.evaluate(`[...document.querySelectorAll('tr.compared-check')].filter((row) => row.querySelectorAll('td.side-b')[0].classList.contains('differs')).map((row) => row.dataset.checkId).sort()`);
    expect(verdictDiffers).to.deep.equal(['klv-checksum-errors', 'mpegts-errors', 'mpegts-pcr-intervals', 'mpegts-pcr-monotonicity']);
    const klv = await comparedRows(page, 'tr.compared-klv', 'pid');
    expect(klv.map((row) => [row.cells[4], row.cells[5], row.changed])).to.deep.equal([['0', '1', true]]);
    expect(await page.textContent('.compare-files h2')).to.equal('A PASS · B FAIL');
    await saveScreenshot(page, 'dashboard-compare-1440');
    await page.setViewportSize({ width: 1024, height: 800 });
    await saveScreenshot(page, 'dashboard-compare-1024');
    await page.close();
  });

  it('says why it cannot compare a path outside the browse roots', async () => {
    const page = await openSignedIn(suite.session, suite.service, `#/compare?${new URLSearchParams({ a: before.path, b: '/etc/passwd' }).toString()}`);
    await page.waitForSelector('.comparison[data-state="failed"] .error');
    expect(await page.textContent('.comparison .error')).to.contain('ERR_FILE_OUTSIDE_ROOTS');
    expect(await page.$('tr.compared-check')).to.equal(null);
    await page.close();
  });
});
