/**
 * The report page in headless Chromium, against a real inspection service:
 * a recording is found on the files page, inspected there (progress bar),
 * and its report shows what the REST report says, cell by cell — on a
 * generated stream with a PCR gap and a KLV checksum error, whose failed
 * checks must be exactly the ones those faults break, and on a real fixture.
 */
import { expect } from 'chai';
import { realpathSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { fixturesDir, fixtureOrSkip } from '../../test-support/fixtures.js';
import { saveScreenshot } from '../../test-support/chromium.js';
import { formatQuantity } from '../src/shared/quantity-format.js';
import { openSignedIn } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';
import type { GeneratedRecording } from './generated-recordings.js';

interface RestCheck {
  checkId: string;
  status: string;
  summary: { verdict: string; violations: number; points: number; value: { min: number; max: number; unit: string | null } | null };
}
interface RestReport {
  path: string;
  verdict: string;
  checks: RestCheck[];
  inventory: { totalPackets: number; pids: Array<{ pid: number; role: string; packets: number; continuityErrors: number }> };
  klv: Array<{ pid: number; packets: number; checksumFailures: number }>;
}

/** The rows of a table as the page shows them: each row's data-* attributes and its cells' text. */
async function tableRows(page: Page, rowSelector: string): Promise<Array<{ data: Record<string, string>; cells: string[] }>> {
  return page.evaluate(`[...document.querySelectorAll(${JSON.stringify(rowSelector)})].map((row) => ({
    data: { ...row.dataset },
    cells: [...row.querySelectorAll('td')].map((cell) => cell.textContent.trim()),
  }))`);
}

/** Inspects the file from the files page (its Inspect button), and waits for its report. */
async function inspectFromFilesPage(page: Page, inspectButton: string): Promise<void> {
  await page.click(inspectButton);
  await page.waitForSelector('.report-page[data-state="ready"]', { timeout: 30_000 });
}

/** The worst value as the page must write it, from the REST summary: the extreme farthest from zero. */
function expectedWorst(value: RestCheck['summary']['value']): string {
  if (value === null) return '—';
  const worst = Math.abs(value.min) > Math.abs(value.max) ? value.min : value.max;
  return formatQuantity(worst, value.unit);
}

/** Compares the page's report with the REST report, every check row and every PID row. */
async function expectReportEqualsRest(page: Page, rest: RestReport): Promise<void> {
  expect(await page.textContent('.overall-verdict')).to.equal(rest.verdict.toUpperCase());
  const rows = await tableRows(page, 'tr.check-row');
  expect(rows.map((row) => row.data.checkId)).to.deep.equal(rest.checks.map((check) => check.checkId));
  expect(rows).to.have.length(17);
  rows.forEach((row, index) => {
    const check = rest.checks[index];
    const [, verdict, violations, points, worst] = row.cells;
    expect({ id: check.checkId, verdict, violations, points, worst }).to.deep.equal({
      id: row.data.checkId,
      verdict: check.status === 'failed' ? 'check failed' : check.summary.verdict,
      violations: String(check.summary.violations),
      points: String(check.summary.points),
      worst: expectedWorst(check.summary.value),
    });
    expect(row.data.verdict).to.equal(check.summary.verdict);
  });
  const pids = await tableRows(page, 'table.pids tr.pid');
  expect(pids.map((row) => [Number(row.data.pid), row.cells[2], row.cells[6]])).to.deep.equal(
    rest.inventory.pids.map((pid) => [pid.pid, String(pid.packets), String(pid.continuityErrors)]),
  );
  expect(pids.map((row) => row.cells[1].startsWith(rest.inventory.pids.find((pid) => pid.pid === Number(row.data.pid))?.role ?? '?'))).to.not.include(false);
  const klv = await tableRows(page, 'table.klv-pids tr.klv-pid');
  expect(klv.map((row) => [Number(row.data.pid), row.cells[4], row.cells[6]])).to.deep.equal(rest.klv.map((pid) => [pid.pid, String(pid.packets), String(pid.checksumFailures)]));
}

describe('the dashboard report page (headless Chromium)', function () {
  this.timeout(90_000);
  let faulty: GeneratedRecording;
  const suite = dashboardSuite(
    (recordings) => {
      faulty = recordings.write('faulty-pcr-gap-klv-checksum.ts', {
        bitrate: 3_000_000,
        seed: 11,
        durationSeconds: 6,
        klv: { carriage: 'sync' },
        faults: ['pcr-gap@2', 'klv-checksum@3.5'],
      });
      return { moreBrowseRoots: [fixturesDir] };
    },
    { width: 1400, height: 900 },
  );

  it('shows the report of a stream with a PCR gap and a KLV checksum error: verdicts equal the REST report, the failed checks are the injected ones', async () => {
    const page = await openSignedIn(suite.session, suite.service);
    await page.click(`button.browse-root[data-path="${suite.recordings.root}"]`);
    await page.waitForSelector(`tr.entry[data-path="${faulty.path}"]`);
    await inspectFromFilesPage(page, `tr.entry[data-path="${faulty.path}"] button.inspect`);
    expect(new URL(page.url()).hash).to.equal(`#/report?${new URLSearchParams({ file: faulty.path }).toString()}`);

    const rest = (await suite.service.api<{ report: RestReport }>('POST', '/analysis/archive/lookup', { filePath: faulty.path })).report;
    await expectReportEqualsRest(page, rest);
    const failed = (await tableRows(page, 'tr.check-row[data-verdict="fail"]')).map((row) => row.data.checkId).sort();
    // A PCR gap breaks the PCR interval, the PCR step and TR 101 290's PCR repetition; the corrupt checksum, the checksum check.
    expect(failed).to.deep.equal(['klv-checksum-errors', 'mpegts-errors', 'mpegts-pcr-intervals', 'mpegts-pcr-monotonicity']);
    // The PCR interval's worst value is the gap: the ground truth's PCR came 237.632 ms after the one before.
    expect(await page.textContent('tr.check-row[data-check-id="mpegts-pcr-intervals"] td.worst-value')).to.equal('237.632 ms');
    expect(await page.textContent('table.klv-pids tr.klv-pid td.checksum-failures')).to.equal('1');
    const violationTimes = (await tableRows(page, 'tr.violation[data-check-id="mpegts-pcr-intervals"]')).map((row) => Number(row.data.t));
    const gap = faulty.faults.find((fault) => fault.kind === 'pcr-gap');
    expect(violationTimes).to.have.length(1);
    expect(violationTimes[0]).to.be.closeTo(gap?.atSeconds ?? -1, 0.25);
    await saveScreenshot(page, 'dashboard-report-faulty');

    // A row opens its check's page.
    await page.click('tr.check-row[data-check-id="mpegts-pcr-intervals"] td.reason');
    await page.waitForFunction(`window.location.hash.startsWith('#/check')`);
    expect(new URL(page.url()).hash).to.equal(`#/check?${new URLSearchParams({ file: faulty.path, check: 'mpegts-pcr-intervals' }).toString()}`);
    await page.close();
  });

  it('shows the report of a real recording (a fixture), typed in as a path: verdicts equal the REST report', async function () {
    // Resolved as the service resolves it: ../shared may be a symbolic link.
    const fixture = realpathSync(fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts'));
    const page = await openSignedIn(suite.session, suite.service);
    await page.fill('.path-form input[name=path]', fixture);
    await page.click('.path-form button[type=submit]');
    await page.waitForSelector(`.typed-file[data-path="${fixture}"] button.inspect`);
    await inspectFromFilesPage(page, '.typed-file button.inspect');
    const rest = (await suite.service.api<{ report: RestReport }>('POST', '/analysis/archive/lookup', { filePath: fixture })).report;
    await expectReportEqualsRest(page, rest);
    // The fixture (MANIFEST.md): video on 0x100, asynchronous KLV on 0x101 with 277 ST 0601 packets, all checksums valid.
    const klv = await tableRows(page, 'table.klv-pids tr.klv-pid');
    expect(klv.map((row) => [row.data.pid, row.cells[1], row.cells[4], row.cells[6]])).to.deep.equal([['257', 'async', '277', '0']]);
    await saveScreenshot(page, 'dashboard-report-fixture');
    await page.close();
  });

  it('offers to inspect a file that has no report yet, and shows the report once inspected there', async () => {
    const fresh = suite.recordings.write('not-yet-inspected.ts', { bitrate: 2_000_000, seed: 5, durationSeconds: 2 });
    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file: fresh.path }).toString()}`);
    await page.waitForSelector('.report-page[data-state="none"] .no-report button.inspect');
    await page.click('.no-report button.inspect');
    await page.waitForSelector('.report-page[data-state="ready"]', { timeout: 30_000 });
    const rest = (await suite.service.api<{ report: RestReport }>('POST', '/analysis/archive/lookup', { filePath: fresh.path })).report;
    await expectReportEqualsRest(page, rest);
    expect(rest.verdict).to.equal('pass');
    await page.close();
  });

  it('says why a report cannot be shown: a path outside the browse roots', async () => {
    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file: '/etc/passwd' }).toString()}`);
    await page.waitForSelector('.report-page[data-state="failed"] .error');
    expect(await page.textContent('.report-page .error')).to.contain('ERR_FILE_OUTSIDE_ROOTS');
    expect(await page.$('tr.check-row')).to.equal(null);
    await page.close();
  });
});
