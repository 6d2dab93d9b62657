/**
 * The report's raw datasets panel in headless Chromium, against a real
 * inspection service: each of the nine datasets saves as CSV with one row per
 * row of the run (its total from REST), and as Arrow and Parquet files that
 * an independent reader (DuckDB; arrow-rs for the Arrow stream) reads back
 * with the same number of rows.
 */
import { expect } from 'chai';
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { RAW_DATASET_NAMES } from '@klvscope/core/store';
import { saveScreenshot } from '../../test-support/chromium.js';
import { arrowStreamAsParquet, duckdbRows, sqlPath } from '../../test-support/duckdb-files.js';
import { openSignedIn } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';

/** Every raw dataset, in the order the panel lists them. */
const DATASETS = [...RAW_DATASET_NAMES];

/** Clicks the dataset's button for `format`; the saved file's name and path. */
async function saved(page: Page, dataset: string, format: string): Promise<{ name: string; path: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`.raw-datasets .dataset-export[data-dataset="${dataset}"] button.export-${format}`)]);
  return { name: download.suggestedFilename(), path: await download.path() };
}

describe('the dashboard report raw datasets panel (headless Chromium)', function () {
  this.timeout(180_000);
  let path = '';
  const suite = dashboardSuite((recordings) => {
    path = recordings.write('faulty.ts', { durationSeconds: 4, bitrate: 1_500_000, seed: 34, klv: { carriage: 'async' }, faults: ['pcr-gap@1', 'drop-packet@2', 'klv-checksum@2'] }).path;
  });
  let runId = '';
  const totals = new Map<string, number>();

  before(async function () {
    if (!suite.service) return;
    const { report } = await suite.service.api<{ report: { runId: string } }>('POST', '/automation/file-session/inspect', { filePath: path });
    runId = report.runId;
    for (const dataset of DATASETS) totals.set(dataset, (await suite.service.api<{ total: number }>('GET', `/automation/ingest-runs/${runId}/${dataset}?limit=1`)).total);
  });

  const openReport = async (): Promise<Page> => {
    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file: path }).toString()}`);
    await page.waitForSelector('.raw-datasets .dataset-export', { timeout: 30_000 });
    return page;
  };

  it('saves each of the nine datasets as CSV, a row per row of the run', async () => {
    const page = await openReport();
    expect(await page.evaluate<string[]>(`[...document.querySelectorAll('.raw-datasets .dataset-export')].map((span) => span.dataset.dataset)`)).to.deep.equal(DATASETS);
    for (const dataset of DATASETS) {
      const file = await saved(page, dataset, 'csv');
      expect(file.name).to.equal(`${runId}-${dataset.replace('/', '-')}.csv`);
      const lines = (await readFile(file.path, 'utf8')).split(/\r?\n/).filter((line) => line !== '');
      expect(lines.length - 1, dataset).to.equal(totals.get(dataset));
    }
    // The run has rows where they count: errors, PCRs and KLV fields.
    expect(totals.get('mpegts/errors')).to.be.greaterThan(0);
    expect(totals.get('klv/fields')).to.be.greaterThan(100);
    await page.locator('.raw-datasets').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'dashboard-report-raw-datasets');
    await page.close();
  });

  it('saves Parquet and Arrow files that DuckDB reads back with the same rows', async () => {
    const page = await openReport();
    const parquet = await saved(page, 'klv/metadata-packets', 'parquet');
    expect(parquet.name).to.equal(`${runId}-klv-metadata-packets.parquet`);
    const parquetPath = join(suite.recordings.root, 'metadata.parquet');
    await copyFile(parquet.path, parquetPath);
    const [{ rows }] = await duckdbRows(`SELECT count(*)::INTEGER AS rows FROM read_parquet(${sqlPath(parquetPath)})`);
    expect(rows).to.equal(totals.get('klv/metadata-packets'));

    const arrow = await saved(page, 'mpegts/pcr-values', 'arrow');
    expect(arrow.name).to.equal(`${runId}-mpegts-pcr-values.arrow`);
    const rewritten = join(suite.recordings.root, 'pcr-values.parquet');
    expect(arrowStreamAsParquet(arrow.path, rewritten).rows).to.equal(totals.get('mpegts/pcr-values'));
    const [{ pcrs }] = await duckdbRows(`SELECT count(*)::INTEGER AS pcrs FROM read_parquet(${sqlPath(rewritten)})`);
    expect(pcrs).to.equal(totals.get('mpegts/pcr-values'));
    await page.close();
  });
});
