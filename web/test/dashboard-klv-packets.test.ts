/**
 * The KLV packets page in headless Chromium, against a real inspection
 * service, on a real recording (osh-addons' sample stream: 277 ST 0601
 * packets on PID 0x101): the table lists the `klv/packets` dataset page by
 * page, the packet opened shows the items the `klv/metadata-packets`
 * dataset holds for it, pointing at an item lights exactly its bytes in the
 * hex, the keys step across pages, and the export saves the whole dataset.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { fixturesDir, fixtureOrSkip } from '../../test-support/fixtures.js';
import { saveScreenshot } from '../../test-support/chromium.js';
import { klvItemValueText } from '../src/dashboard/klv/klv-item-value.js';
import { openSignedIn } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';

interface PacketRow {
  pid: number;
  klvIndex: number;
  rawHex: string;
  t: number | null;
}
interface MetadataRow {
  pid: number;
  klvIndex: number;
  items: Array<{ tag: number; name: string; units: string | null; value: unknown; rawHex: string }>;
}
interface DatasetPage<R> {
  total: number;
  rows: R[];
}

async function textsOf(page: Page, selector: string): Promise<string[]> {
  return (await page.locator(selector).allTextContents()).map((text) => text.trim());
}

/** The `data-*` attribute `key` (camelCase) of every element the selector finds, as numbers. */
async function dataNumbers(page: Page, selector: string, key: string): Promise<number[]> {
  return page.evaluate(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((element) => Number(element.dataset[${JSON.stringify(key)}]))`);
}

describe('the dashboard KLV packets page (headless Chromium)', function () {
  this.timeout(120_000);
  const suite = dashboardSuite(() => ({ moreBrowseRoots: [fixturesDir] }), { width: 1440, height: 900 });
  let fixture: string;
  let runId: string;
  let packets: PacketRow[];
  let metadata: MetadataRow[];

  before(async function () {
    if (suite.service === undefined) this.skip();
    // Resolved as the service resolves it: ../shared may be a symbolic link.
    fixture = realpathSync(fixtureOrSkip(this, 'real', 'osh-addons_sample-stream.ts'));
    runId = String((await suite.service.api<{ latestIngestRunId: string | number }>('POST', '/automation/file-session/inspect', { filePath: fixture })).latestIngestRunId);
    packets = (await suite.service.api<DatasetPage<PacketRow>>('GET', `/automation/ingest-runs/${runId}/klv/packets`)).rows;
    metadata = (await suite.service.api<DatasetPage<MetadataRow>>('GET', `/automation/ingest-runs/${runId}/klv/metadata-packets`)).rows;
  });

  it('is reached from the report, and lists the packets of the dataset, 50 to a page', async () => {
    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file: fixture }).toString()}`);
    await page.click('.klv-packets-link a');
    await page.waitForSelector('.klv-packets[data-state="loaded"] tr.klv-packet');
    expect(packets).to.have.length(277);
    expect(await page.textContent('.page-range')).to.equal('1–50 of 277');
    expect(await dataNumbers(page, 'tr.klv-packet', 'klvIndex')).to.deep.equal(packets.slice(0, 50).map((row) => row.klvIndex));
    expect(await dataNumbers(page, 'tr.klv-packet', 'pid')).to.deep.equal(packets.slice(0, 50).map((row) => row.pid));
    await page.close();
  });

  it('writes every stream time in seconds to three decimals, their decimal points in one vertical line', async () => {
    const page = await openSignedIn(suite.session, suite.service, `#/klv?${new URLSearchParams({ file: fixture }).toString()}`);
    await page.waitForSelector('.klv-packets[data-state="loaded"] tr.klv-packet');
    expect(await page.textContent('.klv-packet-table th:nth-child(4)')).to.equal('Stream time (s)');
    const times = await textsOf(page, 'tr.klv-packet td.stream-time');
    expect(times).to.deep.equal(packets.slice(0, 50).map((row) => (row.t === null ? 'before the first PCR' : row.t.toFixed(3))));
    // Issue 36: "1.2" beside "1.234" (and "333.333 ms" under a second). Each time's "." measured where Chromium draws it.
    const pointXs: number[] = await page.evaluate(`[...document.querySelectorAll('tr.klv-packet td.stream-time')].map((cell) => {
      const text = cell.firstChild;
      const range = document.createRange();
      range.setStart(text, text.textContent.indexOf('.'));
      range.setEnd(text, text.textContent.indexOf('.') + 1);
      return range.getBoundingClientRect().left;
    })`);
    expect(Math.max(...pointXs) - Math.min(...pointXs), 'spread of the decimal points, px').to.be.below(0.5);
    expect(await page.evaluate(`getComputedStyle(document.querySelector('tr.klv-packet td.stream-time')).fontVariantNumeric`)).to.equal('tabular-nums');
    await saveScreenshot(page, 'dashboard-klv-packets-times-1440');
    await page.close();
  });

  it('opens a packet with the items the service decoded, and lights exactly the bytes of the item pointed at', async () => {
    const page = await openSignedIn(suite.session, suite.service, `#/klv?${new URLSearchParams({ file: fixture }).toString()}`);
    await page.waitForSelector('tr.klv-packet');
    const chosen = packets[3];
    await page.click(`tr.klv-packet[data-klv-index="${chosen.klvIndex}"]`);
    await page.waitForSelector(`.klv-packet-detail[data-klv-index="${chosen.klvIndex}"]`);
    const decoded = metadata.find((row) => row.pid === chosen.pid && row.klvIndex === chosen.klvIndex);
    expect(decoded, 'the metadata packet of the chosen packet').to.not.equal(undefined);
    const items = decoded?.items ?? [];
    expect(await dataNumbers(page, 'tr.klv-item', 'tag')).to.deep.equal(items.map((item) => item.tag));
    expect(await textsOf(page, 'tr.klv-item td.value')).to.deep.equal(items.map((item) => klvItemValueText(item.value, item.units)));
    expect(await textsOf(page, 'tr.klv-item td:nth-child(4)')).to.deep.equal(items.map((item) => item.units ?? ''));
    // Every byte of the packet is in the dump, in order.
    expect((await textsOf(page, '.hex-dump .hex-byte')).join('')).to.equal(chosen.rawHex);

    // ST 0601 item 2 (Precision Time Stamp): tag 02, length 08, then its 8 value bytes.
    const timeStamp = items.find((item) => item.tag === 2);
    await page.hover('tr.klv-item[data-tag="2"]');
    expect((await textsOf(page, '.hex-dump .hex-byte.lit')).join('')).to.equal(`0208${timeStamp?.rawHex}`);
    // Pointing at a byte of the time stamp's value lights its row.
    const litOffsets = await dataNumbers(page, '.hex-dump .hex-byte.lit', 'offset');
    const valueByte = litOffsets[litOffsets.length - 1];
    // A byte of the key first: no item row is lit.
    await page.hover('.hex-dump .hex-byte[data-offset="3"]');
    expect(await page.$('tr.klv-item.lit')).to.equal(null);
    await page.hover(`.hex-dump .hex-byte[data-offset="${valueByte}"]`);
    expect(await dataNumbers(page, 'tr.klv-item.lit', 'tag')).to.deep.equal([2]);
    await page.hover('tr.klv-item[data-tag="2"]');
    await saveScreenshot(page, 'dashboard-klv-packet-1440');
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.hover('tr.klv-item[data-tag="13"]');
    await saveScreenshot(page, 'dashboard-klv-packet-1024');
    await page.close();
  });

  it('steps to the next packet with j across a page boundary, and back with k', async () => {
    const page = await openSignedIn(suite.session, suite.service, `#/klv?${new URLSearchParams({ file: fixture }).toString()}`);
    await page.waitForSelector('tr.klv-packet');
    await page.click(`tr.klv-packet[data-klv-index="${packets[49].klvIndex}"]`);
    await page.keyboard.press('j');
    await page.waitForSelector('.klv-packets[data-offset="50"][data-state="loaded"]');
    expect(await page.textContent('.page-range')).to.equal('51–100 of 277');
    await page.waitForSelector(`.klv-packet-detail[data-klv-index="${packets[50].klvIndex}"]`);
    await page.keyboard.press('k');
    await page.waitForSelector('.klv-packets[data-offset="0"][data-state="loaded"]');
    await page.waitForSelector(`.klv-packet-detail[data-klv-index="${packets[49].klvIndex}"]`);
    expect(await page.getAttribute('tr.klv-packet.chosen', 'data-klv-index')).to.equal(String(packets[49].klvIndex));
    // A held key: three k before the page renders go three packets back.
    await page.evaluate(`for (let i = 0; i < 3; i += 1) document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', bubbles: true }))`);
    await page.waitForSelector(`.klv-packet-detail[data-klv-index="${packets[46].klvIndex}"]`, { timeout: 5_000 });
    await page.close();
  });

  it('exports the whole packets dataset as CSV: one header line and one line per packet', async () => {
    const page = await openSignedIn(suite.session, suite.service, `#/klv?${new URLSearchParams({ file: fixture }).toString()}`);
    await page.waitForSelector('tr.klv-packet');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('.dataset-export[data-dataset="klv/packets"] button.export-csv')]);
    expect(download.suggestedFilename()).to.equal(`${runId}-klv-packets.csv`);
    const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split(/\r?\n/);
    expect(lines).to.have.length(278);
    expect(lines[0].split(',')).to.include.members(['klvIndex', 'rawHex']);
    await page.close();
  });
});
