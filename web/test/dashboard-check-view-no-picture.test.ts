/**
 * The check page where a recording gives no picture, and on real recordings
 * whose metadata and violations have no stream time: the metadata panel and
 * the map follow the selected violation, packets before the first PCR are
 * found, and every violation the summary counts is listed.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../../test-support/chromium.js';
import { fixturePath, fixtureOrSkip } from '../../test-support/fixtures.js';
import { dirname } from 'node:path';
import type { CheckViewProbe } from '../src/dashboard/check-view/check-view-probe.js';
import { openSignedIn } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';

interface Detail {
  ingestRunId: string;
  summary: { violations: number };
  points: Array<{ t: number | null; violation: boolean; message: string }>;
}

interface MetadataRow {
  t: number | null;
  pid: number;
  pts90kHz: number | null;
}

const checkHash = (file: string, check: string) => `#/check?${new URLSearchParams({ file, check }).toString()}`;
const probeOf = async (page: Page) => (await page.evaluate<CheckViewProbe | undefined>('window.klvscopeCheckView')) as CheckViewProbe;

describe('the dashboard check page without a picture, and on real recordings (headless Chromium)', function () {
  this.timeout(120_000);
  let gapFile = '';
  const suite = dashboardSuite(
    (recordings) => {
      // The generator's video units carry no picture: the browser refuses them, as it would an unplayable recording.
      gapFile = recordings.write('pcr-gap-no-picture.ts', { durationSeconds: 6, bitrate: 1_500_000, seed: 36, klv: { carriage: 'async' }, faults: ['pcr-gap@3'] }).path;
      return { moreBrowseRoots: [dirname(fixturePath('real', 'x'))] };
    },
    { width: 1280, height: 1400 },
  );

  it('moves the metadata panel and the map to the selected violation when the video cannot play', async () => {
    const { service, session } = suite;
    const detail = await service.api<Detail>('GET', `/analysis/file/mpegts-pcr-intervals?filePath=${encodeURIComponent(gapFile)}&limit=100000`);
    const gapTimeS = detail.points.find((point) => point.violation)?.t as number;
    const metadata = await service.api<{ rows: MetadataRow[] }>('GET', `/automation/ingest-runs/${detail.ingestRunId}/klv/metadata-packets`);
    const latestBeforeGap = metadata.rows.filter((row) => row.t !== null && row.t <= gapTimeS).at(-1) as MetadataRow;

    const page = await openSignedIn(session, service, checkHash(gapFile, 'mpegts-pcr-intervals'));
    await page.waitForFunction('window.klvscopeCheckView?.videoNotice != null', undefined, { timeout: 30_000 });
    await page.click('.violation-list tbody tr');
    await page.waitForFunction('window.klvscopeCheckView.panelKlv !== null', undefined, { timeout: 10_000 });
    const probe = await probeOf(page);
    expect(probe.cursorTimeS).to.equal(gapTimeS);
    expect(probe.panelKlv?.streamTimeS).to.equal(latestBeforeGap.t);
    expect(probe.panelKlv?.pts90kHz).to.equal(latestBeforeGap.pts90kHz);
    expect(await page.textContent('.video-notice')).to.match(/^No picture: /);
    // PIDs read as the report writes them.
    expect(await page.textContent('.violation-list tbody tr td:nth-child(2)')).to.equal('0x0100 (256)');
    await saveScreenshot(page, 'dashboard-check-no-picture');
    await page.close();
  });

  it('lists a violation that has no stream time in its check view (kwiver HEVC fixture: a PID declared, never carried)', async function () {
    const fixture = fixtureOrSkip(this, 'real', 'kwiver_h265_tricky_klv.ts');
    const { service, session } = suite;
    await service.api('POST', '/automation/file-session/inspect', { filePath: fixture });
    const { report } = await service.api<{ report: { checks: Array<{ checkId: string }> } }>('POST', '/analysis/archive/lookup', { filePath: fixture });
    let found: { id: string; detail: Detail } | null = null;
    for (const { checkId: id } of report.checks) {
      const detail = await service.api<Detail>('GET', `/analysis/file/${id}?filePath=${encodeURIComponent(fixture)}&limit=100000`);
      if (detail.points.some((point) => point.violation && point.t === null)) found = { id, detail };
    }
    expect(found, 'a check of the fixture with a violation before the first PCR').not.to.equal(null);
    const { id, detail } = found as { id: string; detail: Detail };
    const page = await openSignedIn(session, service, checkHash(fixture, id));
    await page.waitForSelector('.violation-list');
    expect(await page.textContent('.violation-list h2 .count')).to.equal(`(${detail.summary.violations})`);
    const messages = await page.evaluate<string[]>("Array.from(document.querySelectorAll('.violation-list tbody tr .message'), (cell) => cell.textContent)");
    expect(messages).to.deep.equal([...detail.points.filter((p) => p.violation && p.t === null), ...detail.points.filter((p) => p.violation && p.t !== null)].map((p) => p.message));
    await saveScreenshot(page, 'dashboard-check-unplaced-violation');
    await page.close();
  });

  it('shows the packet of the frame on screen when the KLV, without PTS, comes before the first PCR (kwiver H.264 fixture)', async function () {
    const fixture = fixtureOrSkip(this, 'real', 'kwiver_h264_klv.ts');
    const { service, session } = suite;
    const page = await openSignedIn(session, service, checkHash(fixture, 'mpegts-pcr-intervals'));
    await page.waitForFunction('window.klvscopeCheckView?.metadataPackets > 0 && window.klvscopeCheckView.frame !== null', undefined, { timeout: 60_000 });
    const probe = await probeOf(page);
    const frame = probe.frame as NonNullable<CheckViewProbe['frame']>;
    const panel = probe.panelKlv as NonNullable<CheckViewProbe['panelKlv']>;
    // The fixture's one KLV PID carries no PTS: the packet shown is the latest that arrived before the frame was presented.
    expect(panel.pid).to.equal(0x101);
    expect(panel.pts90kHz).to.equal(null);
    expect(panel.streamTimeS === null || panel.streamTimeS <= frame.streamTimeS).to.equal(true);
    expect(panel.sensorLatitudeDeg).to.be.closeTo(60.17682, 0.00001);
    expect(await page.textContent('.klv-panel')).not.to.match(/No metadata packet for this frame/);
    await saveScreenshot(page, 'dashboard-check-klv-before-pcr');
    await page.close();
  });

  it('scales the plot to the data, says a limit off the scale at its edge, and draws no empty frame', async () => {
    const { service, session } = suite;
    const drift = await service.api<{ points: Array<{ value: number | null }>; rules: Record<string, number> }>(
      'GET',
      `/analysis/file/mpegts-pcr-pts-drift?filePath=${encodeURIComponent(gapFile)}&limit=100000`,
    );
    const values = drift.points.flatMap((point) => (point.value === null ? [] : [point.value]));
    const page = await openSignedIn(session, service, checkHash(gapFile, 'mpegts-pcr-pts-drift'));
    await page.waitForFunction('window.klvscopeCheckView?.yAxis != null', undefined, { timeout: 30_000 });
    const axis = (await probeOf(page)).yAxis as NonNullable<CheckViewProbe['yAxis']>;
    const span = Math.max(...values) - Math.min(...values);
    // The data fill the plot (with a tenth of padding each side); a limit far from them is written at the edge, not drawn.
    expect(axis.max - axis.min).to.be.at.most(Math.max(span, Math.max(...values.map(Math.abs)) * 0.01) * 1.2 + 1e-9);
    const far = [drift.rules.minDelayMs, drift.rules.maxDelayMs].filter((limit) => limit < axis.min || limit > axis.max);
    expect(axis.offScale).to.deep.equal(far);
    expect(new Set(axis.tickLabels).size).to.equal(axis.tickLabels.length);
    for (const width of [1440, 1024]) {
      await page.setViewportSize({ width, height: 1000 });
      await page.waitForTimeout(200);
      await saveScreenshot(page, `dashboard-check-plot-scaled-${width}`);
    }
    await page.close();

    // The stream has no KLV: a KLV check has no point to plot.
    const empty = await openSignedIn(session, service, checkHash(gapFile, 'klv-checksum-errors'));
    await empty.waitForSelector('.check-plot');
    expect(await empty.textContent('.check-plot .plot-empty')).to.equal('Nothing to plot: the check gave no point with a stream time.');
    expect(await empty.$('.check-plot .uplot')).to.equal(null);
    await empty.close();
  });
});
