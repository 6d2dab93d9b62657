/**
 * The report's CSV export buttons in headless Chromium, against a real
 * inspection service: every table of the report (problems, time line,
 * checks, programs, PIDs, video details, PSI tree, KLV metadata, most
 * severe violations) saves a CSV whose rows are the table's as the page
 * shows them (or every row the report lists, for the violations and the
 * flattened PSI tree), checked against the REST report; on a generated
 * recording with PCR gaps and KLV checksum faults muxed with an ffmpeg
 * H.264 clip's video (makeClip).
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { findFfmpeg } from '@klvscope/adapters';
import { saveScreenshot } from '../../test-support/chromium.js';
import { makeClip } from '../../test-support/ffmpeg-clips.js';
import { openSignedIn } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';

interface RestReport {
  checks: Array<{ checkId: string; summary: { violations: number } }>;
  inventory: { programs: Array<{ programNumber: number; streams: number[] }>; pids: Array<{ pid: number; packets: number }> };
  klv: Array<{ pid: number; packets: number }>;
  topViolations: Array<{ message: string; checkId: string }>;
  problems: Array<{ message: string }>;
  problemKinds: Array<{ line: string; count: number }>;
  video: Array<{ pid: number; frameTypes: { I: number; P: number; B: number } }>;
}

/** RFC 4180: fields split at commas outside quotes, "" a quote inside them, rows at CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

/** Clicks the table's CSV button; the saved file's name and rows (its byte order mark checked and dropped). */
async function exported(page: Page, table: string): Promise<{ name: string; rows: string[][] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`button.csv-export[data-table="${table}"]`)]);
  const text = await readFile(await download.path(), 'utf8');
  expect(text.charCodeAt(0), 'a UTF-8 byte order mark').to.equal(0xfeff);
  return { name: download.suggestedFilename(), rows: parseCsv(text.slice(1)) };
}

/** A table's rows as the page shows them, each cell's white space collapsed. */
async function shownRows(page: Page, selector: string): Promise<string[][]> {
  return page.evaluate(`[...document.querySelectorAll('${selector} tr')].map((row) => [...row.children].map((cell) => cell.textContent.replace(/\\s+/g, ' ').trim()))`);
}

describe('the dashboard report CSV exports (headless Chromium)', function () {
  this.timeout(180_000);
  let path = '';
  const suite = dashboardSuite(
    (recordings) => {
      const faulty = recordings.write('faulty.ts', { durationSeconds: 5, bitrate: 1_500_000, seed: 36, klv: { carriage: 'async' }, faults: ['pcr-gap@1', 'pcr-gap@2.5', 'pcr-gap@4', 'klv-checksum@2'] });
      path = faulty.path;
    },
    { width: 1440, height: 900 },
  );

  it('saves every table of the report as CSV, each with the rows it shows', async () => {
    const { report: rest } = await suite.service.api<{ report: RestReport }>('POST', '/automation/file-session/inspect', { filePath: path });
    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file: path }).toString()}`);
    await page.waitForSelector('.report-page[data-state="ready"]', { timeout: 30_000 });
    const buttons = await page.evaluate<string[]>(`[...document.querySelectorAll('button.csv-export')].map((button) => button.dataset.table)`);
    const expectedTables = ['problems', 'timeline', 'checks', 'programs', 'pids', ...(rest.video.length > 0 ? ['video'] : []), 'psi', 'klv', 'violations'];
    expect(buttons).to.deep.equal(expectedTables);

    // The tables read from the page: the file holds exactly the rows shown.
    const files = new Map<string, string[][]>();
    for (const [table, selector] of [['checks', 'table.checks-table'], ['programs', 'table.programs'], ['pids', 'table.pids'], ['klv', 'table.klv-pids'], ['video', 'table.video-streams']] as const) {
      if (!expectedTables.includes(table)) continue;
      const file = await exported(page, table);
      expect(file.name).to.equal(`faulty-${table}.csv`);
      expect(file.rows, table).to.deep.equal(await shownRows(page, selector));
      files.set(table, file.rows);
    }
    // ... and those rows are the REST report's.
    const checks = files.get('checks')!;
    expect(checks.slice(1).map((row) => row[0].split(' ').pop())).to.deep.equal(rest.checks.map((check) => check.checkId));
    expect(checks.slice(1).map((row) => Number(row[2]))).to.deep.equal(rest.checks.map((check) => check.summary.violations));
    const pids = files.get('pids')!;
    expect(pids[0].slice(0, 3)).to.deep.equal(['PID', 'Type', 'Packets']);
    expect(pids.slice(1).map((row) => Number(row[2].replace(/,/g, '')))).to.deep.equal(rest.inventory.pids.map((pid) => pid.packets));
    const klv = files.get('klv')!;
    expect(klv.slice(1).map((row) => Number(row[4].replace(/,/g, '')))).to.deep.equal(rest.klv.map((pid) => pid.packets));

    // The lists and the tree, from the report's data: every problem kind, every problem, every listed violation, every stream.
    const problems = (await exported(page, 'problems')).rows;
    expect(problems[0]).to.deep.equal(['Severity', 'Problem', 'Count', 'Count is a lower bound', 'First at (s)', 'PID', 'Checks']);
    expect(problems.slice(1).map((row) => [row[1], Number(row[2])])).to.deep.equal(rest.problemKinds.map((kind) => [kind.line, kind.count]));
    expect(problems.length).to.be.greaterThan(1);
    const timeline = (await exported(page, 'timeline')).rows;
    expect(timeline.slice(1).map((row) => row[4])).to.deep.equal(rest.problems.map((problem) => problem.message));
    const violations = (await exported(page, 'violations')).rows;
    expect(violations.slice(1).map((row) => [row[2], row[4]])).to.deep.equal(rest.topViolations.map((point) => [point.checkId, point.message]));
    // More than the ten rows shown before "Show all": the file has every one the report lists.
    expect(rest.topViolations.length).to.be.greaterThan(10);
    const psi = (await exported(page, 'psi')).rows;
    expect(psi[0]).to.deep.equal(['Program', 'PMT PID', 'PCR PID', 'Program descriptors', 'Stream PID', 'Type', 'stream_type', 'Stream descriptors']);
    expect(psi.slice(1).map((row) => [Number(row[0]), row[4]])).to.deep.equal(
      rest.inventory.programs.flatMap((program) => program.streams.map((pid) => [program.programNumber, `0x${pid.toString(16).toUpperCase().padStart(4, '0')} (${pid})`])),
    );
    // A quoted field survives: a problem line holds commas.
    expect(problems.slice(1).some((row) => row[1].includes(','))).to.equal(true);
    await saveScreenshot(page, 'dashboard-report-export-1440');
    await page.setViewportSize({ width: 1024, height: 900 });
    await saveScreenshot(page, 'dashboard-report-export-1024');
    await page.close();
  });

  it('saves the video details of an ffmpeg clip with the picture type counts of the REST report', async function () {
    const ffmpeg = findFfmpeg();
    if (ffmpeg === null) {
      console.log('      skipped: no ffmpeg on the PATH (apt-get install ffmpeg)');
      this.skip();
    }
    const clip = makeClip(ffmpeg, suite.recordings.root, 'clip', { codec: 'hevc', seconds: 2, size: '320x240', rate: 25, bFrames: 3, klv: true });
    const { report: rest } = await suite.service.api<{ report: RestReport }>('POST', '/automation/file-session/inspect', { filePath: clip });
    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file: clip }).toString()}`);
    await page.waitForSelector('.video-details tr.video-stream', { timeout: 30_000 });
    const file = await exported(page, 'video');
    expect(file.name).to.equal('clip-video.csv');
    expect(file.rows).to.deep.equal(await shownRows(page, 'table.video-streams'));
    const header = file.rows[0];
    const [row] = file.rows.slice(1);
    const [video] = rest.video;
    expect(['I', 'P', 'B'].map((type) => Number(row[header.indexOf(type)]))).to.deep.equal([video.frameTypes.I, video.frameTypes.P, video.frameTypes.B]);
    expect(row[header.indexOf('Codec')]).to.equal('HEVC');
    await page.close();
  });
});
