/**
 * The dashboard's map on local tiles (headless Chromium, the real inspection
 * service started with `--tiles`): the check page of a real recording asks
 * the service for its tiles, every tile it asks for is answered 200, and
 * the imagery lies under the aircraft. Once on a tile folder, once on an
 * MBTiles file, both made here over the recording's area.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { mapTilesOf, type ServedMapTiles } from '../../gateway/src/http/map-tile-routes.js';
import { chromiumUnavailableReason, launchChromium, saveScreenshot, type ChromiumSession } from '../../test-support/chromium.js';
import { fixtureOrSkip, fixturePath } from '../../test-support/fixtures.js';
import { OSH_ADDONS_AREA, writeMbtilesOver, writeTileFolder } from '../../test-support/map-tiles.js';
import { startDashboardService, type DashboardService } from './dashboard-page-driver.js';

const AREA = OSH_ADDONS_AREA;

interface TileRequests {
  answered: Map<string, number>;
}

function countTileRequests(page: Page): TileRequests {
  const requests: TileRequests = { answered: new Map() };
  page.on('response', (response) => {
    if (/\/tiles\/\d+\/\d+\/\d+$/.test(new URL(response.url()).pathname)) requests.answered.set(response.url(), response.status());
  });
  return requests;
}

/** Whether a drawn tile covers the centre of the aircraft's marker. */
const IMAGERY_UNDER_AIRCRAFT = `(() => {
  const marker = document.querySelector('.flight-map path[fill="#e74c3c"]');
  if (marker === null) return false;
  const box = marker.getBoundingClientRect();
  const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
  return Array.from(document.querySelectorAll('.flight-map img.leaflet-tile-loaded')).some((tile) => {
    const r = tile.getBoundingClientRect();
    return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  });
})()`;

describe('the dashboard map on local tiles (headless Chromium)', function () {
  this.timeout(120_000);
  let session: ChromiumSession;
  let work: string;

  before(async function () {
    const reason = chromiumUnavailableReason();
    if (reason !== null) {
      console.log(`      skipped: ${reason}`);
      this.skip();
    }
    work = mkdtempSync(join(tmpdir(), 'klvscope-map-tiles-page-'));
    session = await launchChromium({ viewport: { width: 1440, height: 1400 } });
  });

  after(async () => {
    await session?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function showOnTiles(context: Mocha.Context, tilesPath: string, shot: string): Promise<void> {
    const fixture = fixtureOrSkip(context, 'real', 'osh-addons_sample-stream.ts');
    let tiles: ServedMapTiles | undefined;
    let service: DashboardService | undefined;
    try {
      tiles = await mapTilesOf(tilesPath);
      service = await startDashboardService({ browseRoots: [dirname(fixturePath('real', 'x'))], mapTiles: tiles });
      const page = await session.newPage();
      const requests = countTileRequests(page);
      await page.goto(service.server.signInUrl);
      await page.waitForSelector('nav.top-nav', { timeout: 10_000 });
      await page.evaluate(`window.location.hash = ${JSON.stringify(`#/check?${new URLSearchParams({ file: fixture, check: 'klv-packet-rate-consistency' }).toString()}`)}`);
      await page.waitForFunction('(window.klvscopeCheckView?.trackPointCount ?? 0) > 0 && window.klvscopeCheckView.frame !== null', undefined, { timeout: 30_000 });
      await page.waitForFunction(IMAGERY_UNDER_AIRCRAFT, undefined, { timeout: 15_000 });
      // Let the tiles of the view finish loading before counting them.
      await page.waitForFunction("document.querySelectorAll('.flight-map img.leaflet-tile:not(.leaflet-tile-loaded)').length === 0", undefined, { timeout: 15_000 });
      const statuses = [...requests.answered.values()];
      expect(statuses.length).to.be.greaterThan(3);
      expect(statuses.filter((status) => status !== 200)).to.deep.equal([]);
      const loaded = await page.evaluate<number>("document.querySelectorAll('.flight-map img.leaflet-tile-loaded').length");
      expect(loaded).to.be.greaterThan(3);
      console.log(`      ${shot}: ${statuses.length} tile requests answered 200, ${loaded} tiles drawn`);
      await page.locator('.flight-map').scrollIntoViewIfNeeded();
      await saveScreenshot(page, `${shot}-1440`);
      await page.setViewportSize({ width: 1024, height: 1400 });
      await page.waitForFunction(IMAGERY_UNDER_AIRCRAFT, undefined, { timeout: 15_000 });
      await page.waitForTimeout(500);
      await saveScreenshot(page, `${shot}-1024`);
      await page.close();
    } finally {
      await service?.close();
      tiles?.local?.close();
    }
  }

  it('draws the tiles of a folder under the track, every tile request answered 200 (osh-addons fixture)', async function () {
    const folder = join(work, 'tiles');
    writeTileFolder(folder, AREA);
    await showOnTiles(this, folder, 'dashboard-map-local-tiles-folder');
  });

  it('draws the tiles of an MBTiles file under the track, every tile request answered 200 (osh-addons fixture)', async function () {
    const file = join(work, 'area.mbtiles');
    await writeMbtilesOver(file, AREA);
    await showOnTiles(this, file, 'dashboard-map-local-tiles-mbtiles');
  });
});
