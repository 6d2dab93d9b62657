/**
 * Finding the worst in seconds, on the report (headless Chromium, a real
 * service): "Jump to the worst" opens the worst problem's check with its
 * worst violation selected, and one time line holds every check's
 * violations, filtered by check and severity, each mark opening its moment.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../../test-support/chromium.js';
import { openSignedIn } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';

interface RestReport {
  problems: Array<{ t: number | null; severity: string; checkIds: string[] }>;
  problemKinds: Array<{ line: string; checkIds: string[]; worst: { t: number | null; value: number | null } }>;
}

/** The marks on the time line: each lane's check and the times of its marks. */
async function shownMarks(page: Page): Promise<Array<{ check: string; times: number[] }>> {
  return page.evaluate(
    "Array.from(document.querySelectorAll('.violation-timeline g.lane'), (lane) => ({ check: lane.dataset.check, times: Array.from(lane.querySelectorAll('rect.mark'), (mark) => Number(mark.dataset.t)) }))",
  );
}

function expectedMarks(problems: RestReport['problems'], keep: (problem: RestReport['problems'][number]) => boolean, checks: string[]) {
  return checks.map((check) => ({ check, times: problems.filter((problem) => problem.t !== null && keep(problem) && problem.checkIds.includes(check)).map((problem) => problem.t as number) }));
}

describe('the dashboard report: jump to the worst and the violations time line (headless Chromium)', function () {
  this.timeout(120_000);
  let file = '';
  const suite = dashboardSuite(
    (recordings) => {
      // Two PCR gaps, the later one longer (the worst), and a KLV checksum fault: two checks' kinds of problem.
      file = recordings.write('gaps-and-checksum.ts', { durationSeconds: 6, bitrate: 1_500_000, seed: 5, klv: { carriage: 'sync' }, faults: ['pcr-gap@1,durationMs=300', 'pcr-gap@4,durationMs=700', 'klv-checksum@2'] }).path;
    },
    { width: 1440, height: 1000 },
  );

  it('opens the worst problem in its check with its worst violation selected', async () => {
    const { report } = await suite.service.api<{ report: RestReport }>('POST', '/automation/file-session/inspect', { filePath: file });
    const worst = report.problemKinds[0];
    expect(worst.worst.value, 'the 700 ms gap is the worst').to.be.greaterThan(700);
    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file }).toString()}`);
    await page.waitForSelector('.report-page[data-state="ready"]', { timeout: 30_000 });
    await page.click('a.jump-to-worst');
    await page.waitForFunction('window.klvscopeCheckView?.selectedRow !== null && window.klvscopeCheckView?.selectedRow !== undefined', undefined, { timeout: 30_000 });
    const probe = await page.evaluate<{ checkId: string; cursorTimeS: number }>('({ checkId: window.klvscopeCheckView.checkId, cursorTimeS: window.klvscopeCheckView.cursorTimeS })');
    expect(probe.checkId).to.equal(worst.checkIds[0]);
    expect(probe.cursorTimeS).to.be.closeTo(worst.worst.t!, 1e-6);
    expect(await page.textContent('.violation-list tr.selected')).to.contain(worst.worst.t!.toFixed(3));
    await saveScreenshot(page, 'dashboard-jump-to-worst-1440');
    await page.close();
  });

  it("puts every check's violations on one time line, filtered by check and by severity", async () => {
    const { report } = await suite.service.api<{ report: RestReport }>('POST', '/automation/file-session/inspect', { filePath: file });
    const checks = [...new Set(report.problems.flatMap((problem) => problem.checkIds))];
    expect(checks.length, 'PCR and KLV checks both').to.be.greaterThan(2);
    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file }).toString()}`);
    await page.waitForSelector('.violation-timeline rect.mark', { timeout: 30_000 });
    expect(await shownMarks(page)).to.deep.equal(expectedMarks(report.problems, () => true, checks));
    await page.locator('.violation-timeline').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'dashboard-report-timeline-1440');
    await page.setViewportSize({ width: 1024, height: 900 });
    await saveScreenshot(page, 'dashboard-report-timeline-1024');

    await page.selectOption('.violation-timeline select >> nth=0', 'klv-checksum-errors');
    expect(await shownMarks(page)).to.deep.equal(expectedMarks(report.problems, () => true, ['klv-checksum-errors']));
    await page.selectOption('.violation-timeline select >> nth=0', 'all');
    await page.selectOption('.violation-timeline select >> nth=1', 'error');
    expect(await shownMarks(page)).to.deep.equal(expectedMarks(report.problems, (problem) => problem.severity === 'error', checks));
    expect(Number(await page.textContent('.violation-timeline [data-field="shown"]'))).to.equal(report.problems.filter((problem) => problem.severity === 'error').length);

    // A mark opens its check at its moment.
    const lane = (await shownMarks(page)).find((one) => one.times.length > 0)!;
    await page.click(`.violation-timeline g.lane[data-check="${lane.check}"] rect.mark >> nth=0`);
    await page.waitForFunction('typeof window.klvscopeCheckView?.selectedRow === "number"', undefined, { timeout: 30_000 });
    const probe = await page.evaluate<{ checkId: string; cursorTimeS: number }>('({ checkId: window.klvscopeCheckView.checkId, cursorTimeS: window.klvscopeCheckView.cursorTimeS })');
    expect(probe).to.deep.equal({ checkId: lane.check, cursorTimeS: lane.times[0] });
    await page.close();
  });
});
