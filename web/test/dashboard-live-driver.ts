/**
 * What the live page's Chromium tests share: the dashboard suite (a real
 * service, Chromium) with a real tRPC client of the live channel, which the
 * page must agree with, and a session started from the page itself.
 */
import type { Page } from 'playwright-core';
import type { ChromiumSession } from '../../test-support/chromium.js';
import { connectLiveClient, type LiveClient } from '../../gateway/test/live/live-client.js';
import { openSignedIn, TEST_API_KEY, type DashboardService } from './dashboard-page-driver.js';
import { dashboardSuite } from './dashboard-suite.js';

export interface DashboardLiveSuite {
  session: ChromiumSession;
  service: DashboardService;
  /** A tRPC client of the live channel, as a script would read it. */
  channel: LiveClient;
}

/** The suite's service, browser and channel client, ready in the tests (no recordings: the live page reads live sources). */
export function dashboardLiveSuite(viewport: { width: number; height: number }): DashboardLiveSuite {
  const suite = dashboardSuite(() => undefined, viewport);
  const live = {} as DashboardLiveSuite;
  before(async () => {
    ({ session: live.session, service: live.service } = suite);
    live.channel = await connectLiveClient(Number(new URL(live.service.origin).port), TEST_API_KEY);
  });
  after(async () => {
    await live.channel?.close();
  });
  return live;
}

/** Opens the live page, starts a session on udp://127.0.0.1:`port` from its form, and answers the page and the session's id. */
export async function startSessionFromPage(live: DashboardLiveSuite, port: number): Promise<{ page: Page; sessionId: string }> {
  const page = await openSignedIn(live.session, live.service, '#/live');
  await page.waitForSelector('[data-field="channelState"][data-state="open"]', { timeout: 10_000 });
  await page.fill('#live-source', `udp://127.0.0.1:${port}`);
  await page.click('.live-source-form button.start');
  await page.waitForSelector('.live-page[data-session]:not([data-session=""])', { timeout: 5_000 });
  return { page, sessionId: (await page.getAttribute('.live-page', 'data-session')) as string };
}
