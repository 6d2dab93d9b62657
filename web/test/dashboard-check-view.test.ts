/**
 * The dashboard's check page in headless Chromium, against the real
 * inspection service: a generated stream (the demo H.264 clip, synchronous
 * KLV) with a PCR gap injected, and a real recording. What the page draws is
 * compared with what the REST interface returns for the same file.
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { generateTransportStream, H264ClipSource, parseFaultSpec } from '@klvscope/core';
import type { Page } from 'playwright-core';
import { chromiumUnavailableReason, launchChromium, saveScreenshot, type ChromiumSession } from '../../test-support/chromium.js';
import { fixturePath, fixtureOrSkip, repoRoot } from '../../test-support/fixtures.js';
import type { CheckDetail as GatewayCheckDetail } from '../../gateway/src/inspection/routes/detail-routes.js';
import type { CheckDetail } from '../src/dashboard/check-view/check-detail-wire.js';
import type { CheckViewProbe } from '../src/dashboard/check-view/check-view-probe.js';
import { openSignedIn, startDashboardService, type DashboardService } from './dashboard-page-driver.js';

// The page's view of the detail endpoint's answer must stay readable from the gateway's: this fails the typecheck when they part.
type Assignable<To, From extends To> = [To, From];
export type CheckDetailAgrees = Assignable<CheckDetail, GatewayCheckDetail>;

type Probe = CheckViewProbe;

interface Detail {
  total: number;
  ingestRunId: string;
  rules: Record<string, number>;
  summary: { violations: number };
  points: Array<{ t: number | null; violation: boolean; value: number | null }>;
}

interface Rows<T> {
  total: number;
  rows: T[];
}

type MetadataRow = { pts90kHz: number | null; items: Array<{ tag: number; value: unknown }> };

const FRAME_PERIOD_S = 1 / 30;
const checkHash = (file: string, check: string) => `#/check?${new URLSearchParams({ file, check }).toString()}`;
const probeOf = (page: Page) => page.evaluate<Probe | undefined>('window.klvscopeCheckView');

/** Metadata packets with a platform position (ST 0601 items 13 and 14): the points of the map's platform track. */
function withPosition(rows: MetadataRow[]): number {
  const has = (row: MetadataRow, tag: number) => row.items.some((item) => item.tag === tag && typeof item.value === 'number');
  return rows.filter((row) => has(row, 13) && has(row, 14)).length;
}

describe('the dashboard check page (headless Chromium)', function () {
  this.timeout(90_000);
  let session: ChromiumSession;
  let service: DashboardService;
  let folder: string;
  let gapFile: string;

  before(async function () {
    const reason = chromiumUnavailableReason();
    if (reason !== null) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    folder = await mkdtemp(join(tmpdir(), 'klvscope-check-view-'));
    const clip = await readFile(join(repoRoot, 'gateway', 'assets', 'demo-clip.h264'));
    const { bytes } = generateTransportStream({
      durationSeconds: 6,
      bitrate: 1_500_000,
      seed: 25,
      videoSource: new H264ClipSource(clip),
      videoFrameRate: 30,
      klv: { carriage: 'sync' },
      faults: [parseFaultSpec('pcr-gap@3')],
    });
    gapFile = join(folder, 'pcr-gap.ts');
    await writeFile(gapFile, bytes);
    service = await startDashboardService({ browseRoots: [folder, dirname(fixturePath('real', 'x'))] });
    session = await launchChromium({ viewport: { width: 1280, height: 1400 } });
  });

  after(async () => {
    await session?.close();
    await service?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('plots every PCR interval with the one violation at the gap, the limit, and the flight on the map', async () => {
    const detail = await service.api<Detail>('GET', `/analysis/file/mpegts-pcr-intervals?filePath=${encodeURIComponent(gapFile)}&limit=100000`);
    const violations = detail.points.filter((point) => point.violation);
    expect(violations).to.have.length(1);
    const metadata = await service.api<Rows<MetadataRow>>('GET', `/automation/ingest-runs/${detail.ingestRunId}/klv/metadata-packets`);

    const page = await openSignedIn(session, service, checkHash(gapFile, 'mpegts-pcr-intervals'));
    await page.waitForFunction('(window.klvscopeCheckView?.trackPointCount ?? 0) > 0 && window.klvscopeCheckView.frame !== null', undefined, { timeout: 30_000 });
    const probe = (await probeOf(page)) as Probe;
    expect(probe.detailPoints).to.equal(detail.total);
    expect(probe.plottedPoints).to.equal(detail.points.filter((point) => point.t !== null).length);
    expect(probe.plottedPoints).to.equal(detail.total);
    expect(probe.violationMarkers).to.equal(1);
    expect(probe.limits).to.deep.equal([detail.rules.maxIntervalMs]);
    expect(await page.textContent('.check-summary [data-field=points]')).to.equal(String(detail.total));
    const listed = await page.evaluate<number[]>("Array.from(document.querySelectorAll('.violation-list tbody tr'), (row) => Number(row.getAttribute('data-t')))");
    expect(listed).to.deep.equal([violations[0].t]);
    expect(probe.metadataPackets).to.equal(metadata.total);
    expect(probe.trackPointCount).to.equal(withPosition(metadata.rows));
    expect(probe.videoNotice).to.equal(null);
    await page.close();
  });

  it('seeks the video to the frame presented at the violation when it is selected, and the panel shows that frame\'s packet', async () => {
    const detail = await service.api<Detail>('GET', `/analysis/file/mpegts-pcr-intervals?filePath=${encodeURIComponent(gapFile)}&limit=100000`);
    const gapTimeS = detail.points.find((point) => point.violation)?.t as number;
    const run = `/automation/ingest-runs/${detail.ingestRunId}`;
    const firstPcr = (await service.api<Rows<{ pcr27MHz: number }>>('GET', `${run}/mpegts/pcr-values?limit=1`)).rows[0].pcr27MHz;
    const pes = await service.api<Rows<{ pid: number; pts90kHz: number | null }>>('GET', `${run}/mpegts/pes-timestamps`);
    const metadata = await service.api<Rows<MetadataRow>>('GET', `${run}/klv/metadata-packets`);

    const page = await openSignedIn(session, service, checkHash(gapFile, 'mpegts-pcr-intervals'));
    await page.waitForSelector('.violation-list tbody tr');
    await page.waitForFunction('window.klvscopeCheckView?.frame !== null', undefined, { timeout: 30_000 });
    await page.click('.violation-list tbody tr');
    await page.waitForFunction(
      `(() => { const p = window.klvscopeCheckView; const v = document.querySelector('video'); return p.seeks === 1 && v.paused && !v.seeking && p.frame !== null && Math.abs(p.frame.streamTimeS - ${gapTimeS}) < 0.5; })()`,
      undefined,
      { timeout: 30_000 },
    );
    // The frame's callback may come a moment after the seek settles.
    await page.waitForTimeout(300);
    const probe = (await probeOf(page)) as Probe;
    const frame = probe.frame as NonNullable<Probe['frame']>;
    // The frame on screen is one the file has, presented (its PTS on the PCR's clock) within one frame period of the gap.
    const videoPts = new Set(pes.rows.filter((row) => row.pts90kHz !== null).map((row) => row.pts90kHz));
    const nearest = [...videoPts].reduce((best, pts) => (Math.abs((pts as number) - frame.pts90kHz) < Math.abs((best as number) - frame.pts90kHz) ? pts : best));
    expect(Math.abs((nearest as number) - frame.pts90kHz)).to.be.at.most(45);
    const presentedAtS = ((nearest as number) - Math.floor(firstPcr / 300)) / 90_000;
    expect(Math.abs(presentedAtS - gapTimeS)).to.be.at.most(FRAME_PERIOD_S);
    // Synchronous KLV: the panel shows the packet of that very frame.
    expect(frame.klvPts90kHz).to.equal(nearest);
    expect(metadata.rows.some((row) => row.pts90kHz === nearest)).to.equal(true);
    const cursor = await page.evaluate('window.klvscopeCheckView.cursorTimeS');
    expect(Math.abs((cursor as number) - gapTimeS)).to.be.at.most(FRAME_PERIOD_S);
    expect(await page.$('.check-plot .time-cursor:not([hidden])')).not.to.equal(null);
    await saveScreenshot(page, 'dashboard-check-pcr-gap');
    await page.close();
  });

  it('says plainly that a check id is unknown', async () => {
    const page = await openSignedIn(session, service, checkHash(gapFile, 'no-such-check'));
    await page.waitForSelector('.check-page .error');
    expect(await page.textContent('.check-page .error')).to.match(/no-such-check/);
    expect(await page.$('.check-plot')).to.equal(null);
    await page.close();
  });

  it('shows a real recording\'s check and its flight (osh-addons fixture)', async function () {
    const fixture = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const detail = await service.api<Detail>('GET', `/analysis/file/klv-packet-rate-consistency?filePath=${encodeURIComponent(fixture)}&limit=100000`);
    const metadata = await service.api<Rows<MetadataRow>>('GET', `/automation/ingest-runs/${detail.ingestRunId}/klv/metadata-packets`);
    const page = await openSignedIn(session, service, checkHash(fixture, 'klv-packet-rate-consistency'));
    await page.waitForFunction('(window.klvscopeCheckView?.trackPointCount ?? 0) > 0 && window.klvscopeCheckView.frame !== null', undefined, { timeout: 30_000 });
    const probe = (await probeOf(page)) as Probe;
    expect(probe.detailPoints).to.equal(detail.total);
    expect(probe.violationMarkers).to.equal(detail.points.filter((point) => point.violation && point.t !== null).length);
    expect(probe.metadataPackets).to.equal(metadata.total);
    expect(probe.trackPointCount).to.equal(withPosition(metadata.rows));
    expect(probe.trackPointCount).to.be.greaterThan(0);
    expect(await page.textContent('.klv-panel [data-field=sensorLatitudeDeg]')).to.match(/°$/);
    await saveScreenshot(page, 'dashboard-check-fixture');
    await page.close();
  });
});
