/**
 * Driving the viewer page from a browser test: read what it shows (its probe,
 * the video element, the panel), wait for frames, pause on one; and a second
 * viewer on the module's socket that keeps what the module sent.
 */
import type { StreamKlvMessage, StreamMessage } from '@klvscope/core';
import type { Page } from 'playwright-core';
import { WebSocket } from 'ws';
import type { ViewerProbe } from '../src/viewer/viewer-probe.js';

export interface VideoState {
  currentTime: number;
  videoWidth: number;
  videoHeight: number;
  paused: boolean;
}

export async function readProbe(page: Page): Promise<ViewerProbe> {
  return page.evaluate<ViewerProbe>('window.klvscopeViewer');
}

export async function readVideo(page: Page): Promise<VideoState> {
  return page.evaluate<VideoState>(
    "(() => { const v = document.querySelector('video'); return { currentTime: v.currentTime, videoWidth: v.videoWidth, videoHeight: v.videoHeight, paused: v.paused }; })()",
  );
}

async function panelText(page: Page, field: string): Promise<string> {
  // Without waiting: a page without metadata has no such cell.
  const cell = await page.$(`.klv-panel td[data-field="${field}"]`);
  return cell === null ? '' : ((await cell.textContent()) ?? '');
}

/**
 * The probe at a moment when the map has drawn every packet received so far
 * (packets keep coming; the map draws each after the page's next render):
 * a track point for each. Times out if that moment never comes.
 */
export async function probeWithTracksDrawn(page: Page): Promise<ViewerProbe> {
  const handle = await page.waitForFunction(
    '(() => { const p = window.klvscopeViewer; return p.trackPointCount === p.klvReceived && p.frameCentrePointCount === p.klvReceived && JSON.stringify(p); })()',
    undefined,
    { timeout: 5_000, polling: 20 },
  );
  return JSON.parse((await handle.jsonValue()) as string) as ViewerProbe;
}

/** Waits until the page has shown `frames` frames of video. */
export async function waitForFrames(page: Page, frames: number): Promise<void> {
  await page.waitForFunction(`window.klvscopeViewer.framesShown >= ${frames}`, undefined, { timeout: 30_000, polling: 100 });
}

/**
 * Pauses the video and waits for the page to settle, so that the frame on
 * screen, the probe and the panel all tell of the same frame.
 */
export async function pauseOnFrame(page: Page): Promise<{ probe: ViewerProbe; latitudeText: string }> {
  await pauseWithTheButton(page);
  await page.waitForTimeout(400);
  return settledProbeAndLatitude(page);
}

/**
 * Pauses as a viewer does, with the page's own button, once the video plays
 * (the button plays a video not yet started): a pause through the page holds
 * (the page's start on enough buffer asks it first).
 */
export async function pauseWithTheButton(page: Page): Promise<void> {
  await page.waitForFunction("!document.querySelector('video').paused", undefined, { timeout: 30_000, polling: 50 });
  await page.click('button[data-action="play-pause"]');
  await page.waitForFunction('window.klvscopeViewer.paused === true', undefined, { timeout: 5_000, polling: 50 });
}

/** Presses `key` and waits until the frame on screen is another than `fromPts90kHz` (a step), or the step's outcome says it could not go. */
export async function stepFrame(page: Page, key: string, fromPts90kHz: number): Promise<ViewerProbe> {
  await page.keyboard.press(key);
  await page.waitForFunction(
    `(() => { const p = window.klvscopeViewer; return p.lastStep !== null && (p.lastStep !== 'stepped' || p.lastFrame.pts90kHz !== ${fromPts90kHz}); })()`,
    undefined,
    { timeout: 5_000, polling: 20 },
  );
  return (await settledProbeAndLatitude(page)).probe;
}

/**
 * The probe and the panel's latitude read together, once the frame, the
 * packet shown and the cell have stayed the same over two reads 150 ms
 * apart: packets go on arriving while the video is paused, and the page may
 * pick a later one for the frame (asynchronous KLV), drawing the panel a
 * render after the probe changed. After 5 s, whatever they are then.
 */
export async function settledProbeAndLatitude(page: Page): Promise<{ probe: ViewerProbe; latitudeText: string }> {
  const read = `(() => {
    const probe = window.klvscopeViewer;
    const text = document.querySelector('.klv-panel td[data-field="sensorLatitudeDeg"]')?.textContent ?? '';
    const shown = JSON.stringify([probe.lastFrame, probe.panelKlv, text]);
    const settled = window.klvscopeSettledRead === shown;
    window.klvscopeSettledRead = shown;
    return settled && JSON.stringify({ probe, latitudeText: text });
  })()`;
  const handle = await page.waitForFunction(read, undefined, { timeout: 5_000, polling: 150 }).catch(() => null);
  if (handle !== null) return JSON.parse((await handle.jsonValue()) as string) as { probe: ViewerProbe; latitudeText: string };
  return { probe: await readProbe(page), latitudeText: await panelText(page, 'sensorLatitudeDeg') };
}

/**
 * The probe and the panel once a metadata packet later than the paused frame
 * has reached the page: a muxer (ffmpeg's, when the module transcodes) may
 * carry a frame's metadata after the frame, up to its interleaving delay, and
 * the page picks the packet again when it comes; on a busy machine that can
 * be later than pauseOnFrame's settling time.
 */
export async function probeOnceLaterKlvArrived(page: Page, framePts90kHz: number): Promise<{ probe: ViewerProbe; latitudeText: string }> {
  await page.waitForFunction(`(window.klvscopeViewer.lastKlvPts90kHz ?? -1) > ${framePts90kHz + 45}`, undefined, { timeout: 15_000, polling: 50 });
  return settledProbeAndLatitude(page);
}

/** A second viewer over the module's socket, keeping every metadata message it is sent. */
export function listenToStream(baseUrl: string): { messages: StreamKlvMessage[]; close(): void } {
  const messages: StreamKlvMessage[] = [];
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/stream`);
  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    const message = JSON.parse((data as Buffer).toString('utf8')) as StreamMessage;
    if (message.type === 'klv') messages.push(message);
  });
  return { messages, close: () => socket.close() };
}
