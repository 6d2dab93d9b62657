// The glass-to-glass measure of `npm run bench:stream`: headless Chromium (Debian's, through
// playwright-core) plays a running streaming module's /stream with the benchmark's own page
// (stream-glass-page.mjs, bundled here with esbuild, mpegts.js and the viewer's stream loader),
// which keeps, for every frame put on screen, the time from the frame's ST 0601 item 2 to the
// frame on screen. Needs playwright-core, mpegts.js and web/ (the web viewer's); without them it
// says why and measures nothing.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const CHROMIUM = '/usr/bin/chromium';
/** DESIGN.md's flags: without the background-networking ones Chromium keeps trying to reach the internet. */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'];
const PAGE_PATH = '/klvscope-bench-glass.html';

/**
 * Plays `moduleUrl`'s stream for `seconds`, starting once `startBufferS` of video is buffered (the
 * viewer's own when not given), and answers { samples: [[shownAtMs, glassToGlassMs, bufferedAheadMs]...],
 * frames, matched, unmatched, droppedFrames, error } or { leftOut: 'why' }.
 */
export async function measureGlassToGlass(moduleUrl, seconds, { startBufferS } = {}) {
  const missing = await missingDependency();
  if (missing !== null) return { leftOut: missing };
  const { chromium } = await import('playwright-core');
  const { build } = await import('esbuild');
  let bundle;
  try {
    bundle = await build({
      entryPoints: [join(here, 'stream-glass-page.mjs')],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'chrome110',
      // mpegts.js is a dependency of the web package: found there or hoisted to the root.
      nodePaths: [join(root, 'web', 'node_modules'), join(root, 'node_modules')],
      logLevel: 'silent',
    });
  } catch (error) {
    return { leftOut: `the page cannot be built (the viewer's stream loader and mpegts.js are needed): ${error.message.split('\n')[0]}` };
  }
  const script = bundle.outputFiles[0].text.replaceAll('</script', '<\\/script');
  const html = `<!doctype html><meta charset="utf-8"><title>bench:stream glass-to-glass</title><video muted playsinline style="width:640px;height:360px"></video><script>${script}</script>`;
  // Served from 127.0.0.1 by a server of its own (not by request interception): Chromium's local network access
  // checks let a page reach a loopback socket only when the page itself came from a local address.
  const pageServer = createServer((request, response) => {
    if ((request.url ?? '').split('?')[0] !== PAGE_PATH) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
  });
  await new Promise((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  const pageUrl = `http://127.0.0.1:${pageServer.address().port}${PAGE_PATH}`;
  const profile = mkdtempSync(join(tmpdir(), 'klvscope-stream-bench-chromium-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, env: { ...process.env, HOME: profile } });
  try {
    const page = await browser.newPage();
    const pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const socketUrl = `${moduleUrl.replace(/^http/, 'ws')}/stream`;
    await page.goto(`${pageUrl}?socket=${encodeURIComponent(socketUrl)}${startBufferS === undefined ? '' : `&startBufferS=${startBufferS}`}`);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const results = await page.evaluate(() => {
      const video = document.querySelector('video');
      const quality = video.getVideoPlaybackQuality();
      return { ...window.glassToGlass, droppedFrames: quality.droppedVideoFrames, totalFrames: quality.totalVideoFrames, size: `${video.videoWidth}x${video.videoHeight}` };
    });
    if (results.error === null && pageErrors.length > 0) results.error = pageErrors.join('; ');
    return results;
  } finally {
    await browser.close();
    await new Promise((resolve) => pageServer.close(resolve));
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Why the browser part cannot run here, or null. */
async function missingDependency() {
  try {
    await import('playwright-core');
  } catch {
    return 'playwright-core is not installed (it comes with the web viewer)';
  }
  const require = createRequire(join(root, 'web', 'package.json'));
  try {
    require.resolve('mpegts.js');
  } catch {
    try {
      createRequire(join(root, 'package.json')).resolve('mpegts.js');
    } catch {
      return 'mpegts.js is not installed (it comes with the web viewer)';
    }
  }
  try {
    await import('node:fs').then((fs) => fs.promises.access(CHROMIUM));
  } catch {
    return `no Chromium at ${CHROMIUM}`;
  }
  return null;
}
