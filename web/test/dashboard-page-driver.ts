/**
 * Driving the dashboard from a browser test: a real inspection service on a
 * free loopback port over a fresh data folder (browse roots as the test
 * says), the pages built, and a page signed in through the sign-in URL as a
 * person would open it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSettings, startInspectionServer, type InspectionListenOptions, type RunningInspectionServer } from '@klvscope/gateway';
import { buildWeb } from '@klvscope/web/build';
import type { Page } from 'playwright-core';
import type { ChromiumSession } from '../../test-support/chromium.js';

export const TEST_API_KEY = 'dashboard-test-key-0123456789abcdef';

export interface DashboardService {
  server: RunningInspectionServer;
  /** `http://127.0.0.1:PORT`: where the dashboard is served. */
  origin: string;
  /** GET/POST on /api/v1 with the key, as a script would: what the pages must agree with. */
  api<T>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

let built: Promise<unknown> | undefined;

/** Builds the browser apps once per test run. */
export function buildPagesOnce(): Promise<unknown> {
  built ??= buildWeb();
  return built;
}

export async function startDashboardService(options: { browseRoots?: string[] } & Omit<InspectionListenOptions, 'dataDir'> = {}): Promise<DashboardService> {
  await buildPagesOnce();
  const dataDir = await mkdtemp(join(tmpdir(), 'klvscope-dashboard-'));
  const { browseRoots, ...rest } = options;
  const settings = defaultSettings();
  const server = await startInspectionServer({
    port: 0,
    env: {},
    log: { level: 'silent' },
    apiKey: TEST_API_KEY,
    defaultSettings: browseRoots === undefined ? settings : { ...settings, browseRoots },
    ...rest,
    dataDir,
  });
  const origin = server.url.replace(/\/api\/v1$/, '');
  return {
    server,
    origin,
    async api<T>(method: string, path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'X-API-Key': TEST_API_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
      return (text === '' ? undefined : JSON.parse(text)) as T;
    },
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new page opened on the sign-in URL, then on `hash` (default the files page), once the navigation shows. */
export async function openSignedIn(session: ChromiumSession, service: DashboardService, hash = '#/files'): Promise<Page> {
  const page = await session.newPage();
  await page.goto(service.server.signInUrl);
  await page.waitForSelector('nav.top-nav', { timeout: 10_000 });
  if (hash !== '#/files') await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
  return page;
}
