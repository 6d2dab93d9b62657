/**
 * Driving the relay console from a browser test: read what the page shows
 * (platforms, channel rows, the error notice, the probe), press a command,
 * wait for a cell's text. The shown values come from the DOM, so a test can
 * compare the screen with the relay's REST answers.
 */
import type { Page } from 'playwright-core';
import type { RelayConsoleProbe } from '../src/relay-console/relay-console-probe.js';

export interface ShownPlatform {
  id: string;
  name: string;
  channels: Array<{ channelId: string; name: string; state: string }>;
}

export async function readProbe(page: Page): Promise<RelayConsoleProbe> {
  return page.evaluate<RelayConsoleProbe>('window.klvscopeRelayConsole');
}

/** Waits for a poll completed after this call, so what is shown is at most that old. */
export async function waitForNextPoll(page: Page): Promise<void> {
  const polls = (await readProbe(page)).polls;
  await page.waitForFunction(`window.klvscopeRelayConsole.polls > ${polls}`, undefined, { timeout: 5_000, polling: 20 });
}

export async function shownPlatforms(page: Page): Promise<ShownPlatform[]> {
  // An expression, not a function: the Node program has no DOM types.
  return page.evaluate<ShownPlatform[]>(`[...document.querySelectorAll('section.platform')].map((section) => ({
    id: section.getAttribute('data-platform-id'),
    name: section.querySelector('[data-field="platform-name"]').textContent,
    channels: [...section.querySelectorAll('tr.channel')].map((row) => ({
      channelId: row.getAttribute('data-channel-id'),
      name: row.querySelector('[data-field="name"]').textContent,
      state: row.querySelector('[data-field="state"]').textContent,
    })),
  }))`);
}

function channelSelector(channelId: string, inner: string): string {
  return `tr.channel[data-channel-id="${channelId}"] ${inner}`;
}

export async function channelText(page: Page, channelId: string, field: string): Promise<string> {
  return (await page.textContent(channelSelector(channelId, `[data-field="${field}"]`), { timeout: 2_000 })) ?? '';
}

export async function channelAttribute(page: Page, channelId: string, field: string, attribute: string): Promise<string> {
  return (await page.getAttribute(channelSelector(channelId, `[data-field="${field}"]`), attribute, { timeout: 2_000 })) ?? '';
}

export async function pressChannelCommand(page: Page, channelId: string, command: string): Promise<void> {
  await page.click(channelSelector(channelId, `button[data-command="${command}"]`));
}

export async function pressPlatformCommand(page: Page, platformId: string, command: string): Promise<void> {
  await page.click(`section.platform[data-platform-id="${platformId}"] .platform-commands button[data-command="${command}"]`);
}

/** Waits until the element shows exactly `text`. */
export async function waitForText(page: Page, selector: string, text: string, timeoutMs = 5_000): Promise<void> {
  await page.waitForFunction(`document.querySelector(${JSON.stringify(selector)})?.textContent === ${JSON.stringify(text)}`, undefined, { timeout: timeoutMs, polling: 50 });
}

export function channelStateSelector(channelId: string): string {
  return channelSelector(channelId, '[data-field="state"]');
}

/** The error notice on screen: code and message as the page shows them; null when there is none. */
export async function shownError(page: Page): Promise<{ code: string; message: string } | null> {
  return page.evaluate<{ code: string; message: string } | null>(`(() => {
    const notice = document.querySelector('.error-notice');
    return notice && { code: notice.querySelector('[data-field="error-code"]').textContent, message: notice.querySelector('[data-field="error-message"]').textContent };
  })()`);
}
