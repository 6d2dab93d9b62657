/**
 * The report's PSI tree in headless Chromium, against a real inspection
 * service: PAT → programs → PMT → streams with their descriptors, exactly
 * the inventory of the REST report, on a generated recording with ST 1402
 * synchronous KLV (whose PMT carries the metadata descriptors).
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../../test-support/chromium.js';
import { openSignedIn } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';
import type { GeneratedRecording } from './generated-recordings.js';

interface Descriptor {
  tag: number;
  name: string;
}
interface RestInventory {
  programs: Array<{ programNumber: number; pmtPid: number; streams: number[]; descriptors: Descriptor[] }>;
  pids: Array<{ pid: number; descriptors: Descriptor[] }>;
}

/** The tree as the page shows it: each program with its descriptor tags and its streams with theirs. */
async function shownTree(page: Page): Promise<Array<{ program: number; tags: number[]; streams: Array<{ pid: number; tags: number[] }> }>> {
  return page.evaluate(`[...document.querySelectorAll('.psi-tree li.psi-program')].map((program) => ({
    program: Number(program.dataset.program),
    tags: [...program.querySelectorAll(':scope > ul.psi-descriptors > li')].map((d) => Number(d.dataset.tag)),
    streams: [...program.querySelectorAll('li.psi-stream')].map((stream) => ({
      pid: Number(stream.dataset.pid),
      tags: [...stream.querySelectorAll('li.psi-descriptor')].map((d) => Number(d.dataset.tag)),
    })),
  }))`);
}

describe('the dashboard report PSI tree (headless Chromium)', function () {
  this.timeout(120_000);
  let recording: GeneratedRecording;
  const suite = dashboardSuite(
    (recordings) => {
      recording = recordings.write('sync-klv-pcr-gap.ts', { bitrate: 2_000_000, seed: 8, durationSeconds: 4, klv: { carriage: 'sync' }, faults: ['pcr-gap@2'] });
    },
    { width: 1440, height: 900 },
  );

  it('shows PAT, programs, PMT and streams with their descriptors, as the REST inventory has them', async () => {
    const rest = (await suite.service.api<{ report: { inventory: RestInventory } }>('POST', '/automation/file-session/inspect', { filePath: recording.path })).report.inventory;
    const page = await openSignedIn(suite.session, suite.service, `#/report?${new URLSearchParams({ file: recording.path }).toString()}`);
    await page.waitForSelector('.psi-tree li.psi-program');
    const descriptorsOf = (pid: number) => rest.pids.find((row) => row.pid === pid)?.descriptors.map((d) => d.tag) ?? [];
    expect(await shownTree(page)).to.deep.equal(
      rest.programs.map((program) => ({
        program: program.programNumber,
        tags: program.descriptors.map((d) => d.tag),
        streams: program.streams.map((pid) => ({ pid, tags: descriptorsOf(pid) })),
      })),
    );
    // ST 1402 synchronous carriage: the program has a metadata_pointer_descriptor (0x25), the KLV stream a metadata_descriptor (0x26).
    expect(rest.programs[0].descriptors.map((d) => d.tag)).to.include(0x25);
    const klvStream = rest.pids.find((row) => row.descriptors.some((d) => d.tag === 0x26));
    expect(klvStream, 'a stream with a metadata_descriptor').to.not.equal(undefined);
    expect(await page.textContent(`li.psi-stream[data-pid="${klvStream?.pid}"] li.psi-descriptor[data-tag="38"] .descriptor-name`)).to.equal('metadata');
    await saveScreenshot(page, 'dashboard-report-psi-1440');
    await page.setViewportSize({ width: 1024, height: 800 });
    await saveScreenshot(page, 'dashboard-report-psi-1024');
    await page.close();
  });
});
