/**
 * The report page opens with the worst problems, one line each, as the REST
 * report's `problemKinds` says them; it says what its lists cap and counts
 * what the checks count (headless Chromium, a real service).
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../../test-support/chromium.js';
import { openSignedIn } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';

interface RestReport {
  checks: Array<{ checkId: string; summary: { violations: number } }>;
  topViolations: unknown[];
  problemKinds: Array<{ line: string; checkIds: string[] }>;
}

const reportHash = (file: string) => `#/report?${new URLSearchParams({ file }).toString()}`;

describe('the dashboard report page: problems and counts (headless Chromium)', function () {
  this.timeout(90_000);
  let twoGaps = '';
  let manyGaps = '';
  const suite = dashboardSuite((recordings) => {
    const gaps = (times: number[]) => times.map((at) => `pcr-gap@${at},durationMs=500`);
    twoGaps = recordings.write('two-gaps.ts', { durationSeconds: 6, bitrate: 1_500_000, seed: 3, faults: gaps([1, 4]) }).path;
    manyGaps = recordings.write('many-gaps.ts', { durationSeconds: 26, bitrate: 500_000, seed: 4, faults: gaps(Array.from({ length: 24 }, (_, i) => 1 + i)) }).path;
  });

  async function openReport(file: string): Promise<{ page: Page; rest: RestReport }> {
    const { report } = await suite.service.api<{ report: RestReport }>('POST', '/automation/file-session/inspect', { filePath: file });
    const page = await openSignedIn(suite.session, suite.service, reportHash(file));
    await page.waitForSelector('.report-page[data-state="ready"]', { timeout: 30_000 });
    return { page, rest: report };
  }

  it('opens with one line per kind of problem, naming every check that saw it', async () => {
    const { page, rest } = await openReport(twoGaps);
    const lines = await page.evaluate<string[]>("Array.from(document.querySelectorAll('.problem-kinds li .line'), (line) => line.textContent)");
    expect(lines).to.deep.equal(rest.problemKinds.map((kind) => kind.line));
    expect(lines).to.deep.equal(['PCR on PID 0x0100 547.456 ms after the previous one, more than 100 ms (the worst): 2 times, from 1.525 s']);
    const links = await page.evaluate<string[]>("Array.from(document.querySelectorAll('.problem-kinds li .seen-by a'), (link) => link.textContent)");
    expect(links).to.deep.equal(['mpegts-pcr-intervals', 'mpegts-pcr-monotonicity', 'mpegts-errors']);
    // The first panel after the header is the problems.
    expect(await page.evaluate("document.querySelector('.report-header').nextElementSibling.className")).to.equal('panel problem-kinds');
    expect(await page.textContent('.top-violations h2 .count')).to.equal('(8)');
    expect(await page.textContent('.error-counts')).to.equal(
      'Errors found parsing the packets, by type: none · the TR 101 290 check (mpegts-errors) counts 4 violations, timing included (see the worst problems above)',
    );
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 1000 });
      await saveScreenshot(page, `dashboard-report-problems-${width}`);
    }
    await page.close();
  });

  it('says that the list of violations is capped, and how many the checks counted', async () => {
    const { page, rest } = await openReport(manyGaps);
    const counted = rest.checks.reduce((sum, check) => sum + check.summary.violations, 0);
    expect(counted).to.equal(24 * 4);
    expect(await page.textContent('.top-violations h2 .count')).to.equal(`(${rest.topViolations.length} listed of ${counted} the checks counted)`);
    expect(await page.textContent('.top-violations .capped')).to.equal('The report keeps the 20 most severe violations of each check and 50 in all; each check\'s page lists every one.');
    const line = await page.textContent('.problem-kinds li .line');
    expect(line).to.match(/: at least 20 times, from 1\.\d{3} s$/);
    await page.close();
  });
});
