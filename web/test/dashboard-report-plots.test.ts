/**
 * The report's plots over stream time in headless Chromium, against a real
 * inspection service: the bit rate of every PID stacked (GET
 * /analysis/bitrate-over-time) and the accuracy of every PCR against
 * ±500 ns, on a generated constant-bitrate recording (its rate known, its
 * PCRs on the byte line) and on a real recording (osh-addons).
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../../test-support/chromium.js';
import { fixturePath } from '../../test-support/fixtures.js';
import { openSignedIn, TEST_API_KEY } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';
import type { GeneratedRecording } from './generated-recordings.js';

interface BitrateOverTime {
  bucketSeconds: number;
  bucketCount: number;
  lastBucketSeconds: number;
  clockPid: number | null;
  packets: number;
  pids: Array<{ pid: number; bitsPerSecond: number[] }>;
}
interface Report {
  runId: string;
  inventory: { totalPackets: number; bitrate: number | null; durationSeconds: number | null };
}

const REAL = fixturePath('real', 'osh-addons_sample-stream.ts');

/** What the two plots show, as their figures' data attributes give it. */
async function shownPlots(page: Page): Promise<{ pids: number[]; stackTop: number[]; pcrPoints: number; pcrOutside: number; offScale: string }> {
  await page.waitForSelector('.pid-bitrate-plot canvas', { timeout: 60_000 });
  await page.waitForSelector('.pcr-accuracy-plot', { timeout: 60_000 });
  return page.evaluate(`(() => {
    const bitrate = document.querySelector('.pid-bitrate-plot');
    const pcr = document.querySelector('.pcr-accuracy-plot');
    return {
      pids: bitrate.dataset.pids.split(',').map(Number),
      stackTop: JSON.parse(bitrate.dataset.stackTop),
      pcrPoints: Number(pcr.dataset.points),
      pcrOutside: Number(pcr.dataset.outside),
      offScale: pcr.dataset.offScale,
    };
  })()`);
}

/** The multiplex's rate in each bucket: every PID's summed, in the order the page stacks them (ascending PID). */
function totals(series: BitrateOverTime): number[] {
  return Array.from({ length: series.bucketCount }, (_, i) => series.pids.reduce((sum, pid) => sum + pid.bitsPerSecond[i], 0));
}

describe('the dashboard report plots over time (headless Chromium)', function () {
  this.timeout(180_000);
  let recording: GeneratedRecording;
  const suite = dashboardSuite(
    (recordings) => {
      recording = recordings.write('cbr-pcr-gap.ts', { bitrate: 2_000_000, seed: 11, durationSeconds: 6, faults: ['pcr-gap@3'] });
      return existsSync(REAL) ? { moreBrowseRoots: [dirname(REAL)] } : {};
    },
    { width: 1440, height: 1000 },
  );

  it('stacks every PID to the multiplex rate and puts every PCR of a constant-bitrate stream inside ±500 ns', async () => {
    const report = (await suite.service.api<{ report: Report }>('POST', '/automation/file-session/inspect', { filePath: recording.path })).report;
    const rest = await suite.service.api<BitrateOverTime>('GET', `/analysis/bitrate-over-time?${new URLSearchParams({ filePath: recording.path }).toString()}`);
    // Every packet counted once, and each whole second of the generator's constant 2 Mb/s within 1 % of it.
    expect(rest.packets).to.equal(report.inventory.totalPackets);
    expect(rest.bucketCount).to.equal(6);
    // The last bucket too: its rate is over the time it covers, not a whole bucket (issue 36: it dipped or spiked).
    for (const total of totals(rest)) expect(total).to.be.within(1_980_000, 2_020_000);
    const pcrRows = (await suite.service.api<{ total: number }>('GET', `/automation/ingest-runs/${report.runId}/mpegts/pcr-values?limit=1`)).total;

    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file: recording.path }).toString()}`);
    const shown = await shownPlots(page);
    expect(shown.pids).to.deep.equal(rest.pids.map((pid) => pid.pid));
    const top = totals(rest);
    shown.stackTop.forEach((value, i) => expect(value).to.be.closeTo(top[i], 1e-6));
    // One stretch (no discontinuity): every PCR but the first and the last has a value, and each is on the byte line.
    expect(shown.pcrPoints).to.equal(pcrRows - 2);
    expect(shown.pcrOutside).to.equal(0);
    expect(shown.offScale, 'the ±500 ns lines are in view').to.equal('');
    await page.locator('.timing-plots').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'dashboard-report-plots-1440');
    await page.setViewportSize({ width: 1024, height: 900 });
    await page.waitForTimeout(300);
    await page.locator('.timing-plots').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'dashboard-report-plots-1024');
    await page.close();
  });

  it('plots a real recording: its packets all counted, its mean rate the inventory one, its PCRs judged against the band', async function () {
    if (!existsSync(REAL)) {
      console.log(`      skipped: fixture real/osh-addons_sample-stream.ts not found`);
      this.skip();
    }
    const report = (await suite.service.api<{ report: Report }>('POST', '/automation/file-session/inspect', { filePath: REAL })).report;
    const rest = await suite.service.api<BitrateOverTime>('GET', `/analysis/bitrate-over-time?${new URLSearchParams({ filePath: REAL }).toString()}`);
    expect(rest.packets).to.equal(report.inventory.totalPackets);
    const seconds = (rest.bucketCount - 1) * rest.bucketSeconds + rest.lastBucketSeconds;
    const meanBps = totals(rest).reduce((sum, bps, i) => sum + bps * (i === rest.bucketCount - 1 ? rest.lastBucketSeconds : rest.bucketSeconds), 0) / seconds;
    expect(meanBps / report.inventory.bitrate!).to.be.within(0.97, 1.03);
    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file: REAL }).toString()}`);
    const shown = await shownPlots(page);
    expect(shown.pids).to.deep.equal(rest.pids.map((pid) => pid.pid));
    // The recording ends 0.24 s into its last bucket: the plot's last step is the multiplex's rate, not 0.24 of it spread over 1 s.
    expect(rest.lastBucketSeconds).to.be.within(0.2, 0.3);
    expect(shown.stackTop[shown.stackTop.length - 1] / meanBps).to.be.within(0.95, 1.05);
    expect(shown.pcrPoints).to.be.greaterThan(0);
    expect(await page.textContent('.pcr-accuracy-plot figcaption')).to.contain(`${shown.pcrOutside.toLocaleString('en-US')} outside the band`);
    await page.locator('.timing-plots').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'dashboard-report-plots-real-1440');
    await page.close();
  });

  it('answers a bucket out of range and a path outside the browse roots with the JSON error body', async () => {
    const ask = async (query: Record<string, string>) => {
      const response = await fetch(`${suite.service.server.url}/analysis/bitrate-over-time?${new URLSearchParams(query).toString()}`, { headers: { 'X-API-Key': TEST_API_KEY } });
      return { status: response.status, body: (await response.json()) as { error: { code: string } } };
    };
    const tooSmall = await ask({ filePath: recording.path, bucketSeconds: '0.01' });
    expect(tooSmall.status).to.equal(400);
    expect(tooSmall.body.error.code).to.equal('ERR_INVALID_FIELD');
    const outside = await ask({ filePath: '/etc/passwd' });
    expect(outside.status).to.equal(403);
    expect(outside.body.error.code).to.match(/^ERR_/);
  });
});
