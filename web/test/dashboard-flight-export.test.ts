/**
 * The run's GIS export on the check page's map (headless Chromium, the real
 * inspection service): the "GIS export" toggle fetches
 * `klv/track?format=geojson` and draws its footprints and frame-centre
 * track; what is drawn is counted against what REST gives a GIS tool.
 */
import { expect } from 'chai';
import { dirname } from 'node:path';
import type { FeatureCollection } from 'geojson';
import type { Page } from 'playwright-core';
import { chromiumUnavailableReason, launchChromium, saveScreenshot, type ChromiumSession } from '../../test-support/chromium.js';
import { fixtureOrSkip, fixturePath } from '../../test-support/fixtures.js';
import type { CheckViewProbe } from '../src/dashboard/check-view/check-view-probe.js';
import { openSignedIn, startDashboardService, type DashboardService } from './dashboard-page-driver.js';

const exportOf = (page: Page) => page.evaluate<CheckViewProbe['flightExport']>('window.klvscopeCheckView.flightExport');

/** Pixels of the export's canvas that something was painted on (an expression, for evaluate and waitForFunction). */
const PAINTED_PIXELS = `(() => {
    const canvas = document.querySelector('.leaflet-under-tracks-pane canvas');
    if (canvas === null) return 0;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
    return painted;
  })()`;
const paintedPixels = (page: Page) => page.evaluate<number>(PAINTED_PIXELS);

describe('the GIS export drawn on the check page map (headless Chromium)', function () {
  this.timeout(90_000);
  let session: ChromiumSession;
  let service: DashboardService;

  before(async function () {
    const reason = chromiumUnavailableReason();
    if (reason !== null) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    service = await startDashboardService({ browseRoots: [dirname(fixturePath('real', 'x'))] });
    session = await launchChromium({ viewport: { width: 1280, height: 1400 } });
  });

  after(async () => {
    await session?.close();
    await service?.close();
  });

  it('draws every footprint polygon and the frame-centre track of the export, and takes them away again (osh-addons fixture)', async function () {
    const fixture = fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts');
    const detail = await service.api<{ ingestRunId: string }>('GET', `/analysis/file/klv-packet-rate-consistency?filePath=${encodeURIComponent(fixture)}&limit=1`);
    const geojson = await service.api<FeatureCollection>('GET', `/automation/ingest-runs/${detail.ingestRunId}/klv/track?format=geojson`);
    const footprints = geojson.features.filter((feature) => feature.properties?.kind === 'footprint').length;
    const frameCentre = geojson.features.find((feature) => feature.properties?.kind === 'frame-centre-track');
    expect(footprints).to.be.greaterThan(100);
    expect(frameCentre?.geometry?.type).to.equal('LineString');

    const page = await openSignedIn(session, service, `#/check?${new URLSearchParams({ file: fixture, check: 'klv-packet-rate-consistency' }).toString()}`);
    await page.waitForFunction('(window.klvscopeCheckView?.trackPointCount ?? 0) > 0', undefined, { timeout: 30_000 });
    expect((await exportOf(page)).state).to.equal('off');
    expect(await paintedPixels(page)).to.equal(0);

    await page.check('input[name=flight-export]');
    await page.waitForFunction("window.klvscopeCheckView.flightExport.state === 'drawn'", undefined, { timeout: 30_000 });
    const drawn = await exportOf(page);
    expect(drawn.footprints).to.equal(footprints);
    expect(drawn.frameCentreLines).to.equal(1);
    expect(await page.textContent('[data-field=flight-export-count]')).to.contain(`${footprints} footprints`);
    // Leaflet paints the canvas on its next animation frame.
    await page.waitForFunction(`(() => { const c = document.querySelector('.leaflet-under-tracks-pane canvas'); return c !== null && c.width > 0; })()`);
    await page.waitForTimeout(200);
    expect(await paintedPixels(page)).to.be.greaterThan(1_000);
    await page.locator('.flight-map').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'dashboard-flight-export');

    await page.uncheck('input[name=flight-export]');
    await page.waitForFunction("window.klvscopeCheckView.flightExport.state === 'off'");
    // The canvas is cleared on Leaflet's next frame.
    await page.waitForFunction(`${PAINTED_PIXELS} === 0`, undefined, { timeout: 5_000 });
    await page.close();
  });
});
