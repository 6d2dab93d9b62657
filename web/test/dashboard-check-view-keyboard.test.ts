/**
 * The check page's keyboard in headless Chromium, against a real inspection
 * service: n and p (and ] and [) walk the violations in time, selecting each
 * as a click would (the cursor moves to it), ? shows the keys and Escape
 * hides them; the keys' help covers nothing (the plot's zoom and pan
 * buttons it once hid) at 1440 and 1024 px; a recording with three PCR gaps.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { saveScreenshot } from '../../test-support/chromium.js';
import type { CheckViewProbe } from '../src/dashboard/check-view/check-view-probe.js';
import { CHECK_SHORTCUTS } from '../src/dashboard/check-view/check-shortcut-keys.js';
import { openSignedIn } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';

interface Detail {
  points: Array<{ t: number | null; violation: boolean }>;
}

interface Box {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The page boxes the keys' help overlaps: the plot's toolbar buttons, the plot, the summary, the violation list. */
async function boxesUnderHelp(page: Page): Promise<string[]> {
  const boxes = await page.evaluate<{ help: Box; others: Box[] }>(`(() => {
    const box = (element, name) => { const r = element.getBoundingClientRect(); return { name, x: r.x, y: r.y, width: r.width, height: r.height }; };
    const others = [
      ...[...document.querySelectorAll('.plot-tools button')].map((b) => box(b, 'button ' + b.dataset.action)),
      ...['.check-plot .plot', '.check-summary', '.violation-list'].map((s) => document.querySelector(s)).filter((e) => e).map((e) => box(e, e.className)),
    ];
    return { help: box(document.querySelector('.shortcut-help'), 'help'), others };
  })()`);
  const { help } = boxes;
  expect(boxes.others.filter((b) => b.name.startsWith('button'))).to.have.length(4);
  return boxes.others
    .filter((b) => b.x < help.x + help.width && help.x < b.x + b.width && b.y < help.y + help.height && help.y < b.y + b.height)
    .map((b) => b.name);
}

const probeOf = async (page: Page) => (await page.evaluate<CheckViewProbe | undefined>('window.klvscopeCheckView')) as CheckViewProbe;
const selectedTime = async (page: Page) => Number(await page.getAttribute('.violation-list tr.selected', 'data-t'));
/** The selected row's time once it is `expected`, or whatever it is after 5 s (the row is drawn after the key). */
async function settledSelectedTime(page: Page, expected: number): Promise<number> {
  await page
    .waitForFunction(`Number(document.querySelector('.violation-list tr.selected')?.getAttribute('data-t')) === ${expected}`, undefined, { timeout: 5_000 })
    .catch(() => undefined);
  return selectedTime(page);
}

describe('the dashboard check page keyboard (headless Chromium)', function () {
  this.timeout(120_000);
  let gaps = '';
  const suite = dashboardSuite(
    (recordings) => {
      gaps = recordings.write('three-pcr-gaps.ts', { durationSeconds: 6, bitrate: 1_500_000, seed: 4, faults: ['pcr-gap@1.5', 'pcr-gap@3', 'pcr-gap@4.5'] }).path;
    },
    { width: 1440, height: 1000 },
  );

  it('walks the violations with n, p, ] and [, and shows the keys with ?', async () => {
    const detail = await suite.service.api<Detail>('GET', `/analysis/file/mpegts-pcr-intervals?filePath=${encodeURIComponent(gaps)}&limit=100000`);
    const times = detail.points.filter((point) => point.violation).map((point) => point.t as number);
    expect(times).to.have.length(3);
    const page = await openSignedIn(suite.session, suite.service, `#/check?${new URLSearchParams({ file: gaps, check: 'mpegts-pcr-intervals' }).toString()}`);
    await page.waitForSelector('.violation-list tr[data-row]', { timeout: 30_000 });
    // Keys go to the page, not to a field.
    await page.click('.check-summary');
    // Past the last violation n stays there; p and [ go back, ] forward.
    const expected = [times[0], times[1], times[2], times[2], times[1], times[0], times[1]];
    const keys = ['n', 'n', 'n', 'n', 'p', '[', ']'];
    const walked: number[] = [];
    for (const [index, key] of keys.entries()) {
      await page.keyboard.press(key);
      // The row is drawn after the key: wait for the one expected (a wrong one shows after the wait).
      walked.push(await settledSelectedTime(page, expected[index]));
    }
    expect(walked).to.deep.equal(expected);
    // Keys faster than the page draws (all three before it renders) step from one another: [ [ n from the second is the second.
    await page.evaluate(`for (const key of ['[', '[', 'n']) document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }))`);
    expect(await settledSelectedTime(page, times[1])).to.equal(times[1]);
    expect((await probeOf(page)).cursorTimeS).to.equal(times[1]);

    expect(await page.$('.shortcut-help')).to.equal(null);
    await page.keyboard.press('?');
    await page.waitForSelector('.shortcut-help');
    expect((await page.locator('.shortcut-help tr.shortcut').allTextContents()).length).to.equal(CHECK_SHORTCUTS.length);
    expect(await boxesUnderHelp(page), 'elements under the keys help at 1440 px').to.deep.equal([]);
    await saveScreenshot(page, 'dashboard-check-keys-1440');
    await page.setViewportSize({ width: 1024, height: 900 });
    expect(await boxesUnderHelp(page), 'elements under the keys help at 1024 px').to.deep.equal([]);
    await saveScreenshot(page, 'dashboard-check-keys-1024');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.shortcut-help', { state: 'detached' });
    await page.close();
  });
});
