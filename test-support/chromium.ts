/**
 * Headless Chromium for the browser tests: Debian's /usr/bin/chromium driven
 * by playwright-core (`npx playwright install` cannot download a browser
 * here). Each launch gets a fresh empty profile folder, removed at close.
 * Without the background-networking flags Chromium keeps trying to reach
 * the internet, which this machine refuses.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { repoRoot } from './fixtures.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Where screenshots go (gitignored): a person looks at them. */
export const artifactsDir = join(repoRoot, 'test-artifacts');

/** Why the browser tests cannot run here, or null when they can. */
export function chromiumUnavailableReason(): string | null {
  if (!existsSync(CHROMIUM_PATH)) return `${CHROMIUM_PATH} not found (apt-get install chromium)`;
  try {
    createRequire(import.meta.url).resolve('playwright-core');
  } catch {
    return 'playwright-core is not installed (npm ci)';
  }
  return null;
}

/** Skips the test or hook's suite, saying why, when Chromium cannot run here. */
export function skipWithoutChromium(context: Mocha.Context): void {
  const reason = chromiumUnavailableReason();
  if (reason === null) return;
  console.log(`      skipped: ${reason}`);
  context.skip();
}

/** A running Chromium with one context; close() also removes its profile folder. */
export interface ChromiumSession {
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Launches headless Chromium on a fresh temporary profile. */
export async function launchChromium(options: { viewport?: { width: number; height: number } } = {}): Promise<ChromiumSession> {
  const { chromium } = await import('playwright-core');
  const profileDir = await mkdtemp(join(tmpdir(), 'klvscope-chromium-'));
  try {
    // A persistent context is the one way to give Chromium a profile folder of our choosing.
    const context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: options.viewport ?? { width: 1280, height: 800 },
    });
    return {
      context,
      newPage: () => context.newPage(),
      async close() {
        await context.close();
        await rm(profileDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(profileDir, { recursive: true, force: true });
    throw error;
  }
}

/** Saves a full-page screenshot as test-artifacts/<name>.png; returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
