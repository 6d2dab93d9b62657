/**
 * The live page's findings list as an analyst uses it on a feed with many
 * findings (issue 36 item 7), in headless Chromium at 1024 px wide against
 * the real inspection service: filtered by check and by severity, every
 * message within the panel, and one time format on the page.
 */
import { expect } from 'chai';
import { generateTransportStream, parseFaultSpec } from '@klvscope/core';
import type { Page } from 'playwright-core';
import { freeUdpPort } from '../../test-support/free-udp-port.js';
import { sendPaced } from '../../test-support/paced-udp-sender.js';
import { until } from '../../test-support/until.js';
import { saveScreenshot } from '../../test-support/chromium.js';
import { dashboardLiveSuite, startSessionFromPage } from './dashboard-live-driver.js';

const BITRATE = 2_000_000;

/** Faults of several checks and severities, some repeated within a second. */
const FAULTS = ['drop-packet@0.4', 'drop-packet@0.6', 'drop-packet@1.2', 'pat-gap@1.5', 'pcr-gap@2', 'klv-checksum@2.3', 'klv-unknown-tag@2.6', 'klv-missing-version@2.9'];

/** Every time of day the page writes: 24-hour, two digits each, milliseconds where findings come many a second. */
const CLOCK = /^\d{2}:\d{2}:\d{2}(\.\d{3})?$/;

const rowsOf = (page: Page): Promise<Array<{ seq: number; check: string; severity: string }>> =>
  page.evaluate(`[...document.querySelectorAll('.live-findings tr.finding')].map((row) => ({ seq: Number(row.dataset.seq), check: row.dataset.check, severity: row.dataset.severity }))`);

describe('the live page findings, filtered and readable (headless Chromium, 1024 px)', function () {
  this.timeout(60_000);
  const live = dashboardLiveSuite({ width: 1024, height: 900 });

  it('filters the findings by check and by severity, keeps each message inside the panel and writes every time in one format', async () => {
    const { bytes } = generateTransportStream({ bitrate: BITRATE, seed: 7, durationSeconds: 3.5, klv: { carriage: 'sync' }, faults: FAULTS.map((spec) => parseFaultSpec(spec)) });
    const { service, channel } = live;
    const port = await freeUdpPort();
    const { page, sessionId } = await startSessionFromPage(live, port);
    await sendPaced(bytes, port, BITRATE);
    await page.click('.live-source-form button.stop');
    await page.waitForSelector('[data-field="status"]:text("stopped")', { timeout: 5_000 });
    const final = await service.api<{ counts: { findings: number; records: number; bySeverity: Record<string, number> } }>('GET', `/sessions/${sessionId}`);
    const records = (): typeof channel.findings => channel.findings.filter((f) => f.sessionId === sessionId);
    await channel.until(() => records().length >= final.counts.records, 5_000, 'the records on the channel');
    await until('every record on the page', 3_000, async () => (await rowsOf(page)).length === final.counts.records);
    const checks = [...new Set(records().map((f) => f.checkId))];
    expect(checks.length, `checks ${checks.join(', ')}`).to.be.at.least(3);
    // The header counts findings, as the service does, beside the records listed.
    expect(await page.textContent('[data-field="findingCount"]')).to.equal(String(final.counts.findings));

    // By check: the rows are that check's records, newest first; the option says how many findings.
    const check = 'mpegts-errors';
    await page.selectOption('select[name="check"]', check);
    const ofCheck = records().filter((f) => f.checkId === check);
    await until('the rows of one check', 3_000, async () => (await rowsOf(page)).length === ofCheck.length);
    expect(await rowsOf(page)).to.deep.equal(ofCheck.map((f) => ({ seq: f.seq, check: f.checkId, severity: f.severity })).reverse());
    const option = await page.textContent(`select[name="check"] option[value="${check}"]`);
    expect(option).to.equal(`${check} (${ofCheck.reduce((sum, f) => sum + f.count, 0)})`);

    // By severity, with every check: errors only.
    await page.selectOption('select[name="check"]', '');
    await page.selectOption('select[name="severity"]', 'error');
    const errors = records().filter((f) => f.severity === 'error');
    expect(errors.length).to.be.above(0).and.below(records().length);
    await until('the error rows', 3_000, async () => (await rowsOf(page)).length === errors.length);
    expect((await rowsOf(page)).map((row) => row.seq)).to.deep.equal(errors.map((f) => f.seq).reverse());
    await page.selectOption('select[name="severity"]', 'info');

    // Each message wholly inside the findings panel, and nothing to scroll sideways.
    const overflow = await page.evaluate(`(() => {
      const panel = document.querySelector('.live-findings').getBoundingClientRect();
      const scroller = document.querySelector('.findings-scroll');
      const cut = [...document.querySelectorAll('.live-findings td.message')].filter((cell) => cell.getBoundingClientRect().right > panel.right + 0.5).length;
      return { cut, sideways: scroller.scrollWidth - scroller.clientWidth };
    })()`);
    expect(overflow).to.deep.equal({ cut: 0, sideways: 0 });

    // One clock: the findings' arrival, the session's start, the latest reading and the charts' time axis.
    const times = await page.evaluate(`[...document.querySelectorAll('[data-clock]')].map((element) => element.textContent)`);
    expect((times as string[]).length).to.be.above(3);
    for (const time of times as string[]) expect(time).to.match(CLOCK);
    const axis = await page.evaluate(`[...document.querySelectorAll('[data-chart]')].map((chart) => chart.dataset.axisSample)`);
    for (const label of axis as string[]) expect(label).to.match(CLOCK);
    await saveScreenshot(page, 'dashboard-live-findings-1024');
    await page.close();
  });
});
