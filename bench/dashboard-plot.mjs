// `npm run bench:dashboard`: the dashboard in headless Chromium (issue 25). Not a test: it prints.
// 1. A check view of 500,000 points: in the page, from the points in hand (as the REST detail
//    endpoint gives them) to the plot drawn (columns built, uPlot created, its first draw), the
//    check view's own modules (dashboard-plot-page.mjs); RUNS fresh pages, median and spread.
// 2. The first page usable on loopback: a real inspection service serving the built dashboard,
//    a fresh browser context each run (nothing cached), from navigation start (the sign-in URL) to
//    the signed-in files page shown (the navigation and the page's first content in the DOM).
// 3. The sizes of web/dist/dashboard, raw and gzipped.
// Targets: plot < 1 s, first page < 1 s.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const POINTS = Number(process.env.BENCH_POINTS ?? 500_000);
const PAGE_PATH = '/klvscope-bench-plot.html';

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const ms = (value) => `${value.toFixed(0)} ms`;
const spread = (values) => `min ${ms(Math.min(...values))}, max ${ms(Math.max(...values))}`;

async function plotPage() {
  const { build } = await import('esbuild');
  const out = await build({
    entryPoints: [join(here, 'dashboard-plot-page.mjs')],
    bundle: true,
    write: false,
    outdir: join(tmpdir(), 'klvscope-bench-plot'),
    format: 'iife',
    platform: 'browser',
    target: 'chrome110',
    minify: true,
    conditions: ['source'],
    nodePaths: [join(root, 'web', 'node_modules'), join(root, 'node_modules')],
    logLevel: 'silent',
  });
  const js = out.outputFiles.find((file) => file.path.endsWith('.js')).text.replaceAll('</script', '<\\/script');
  const css = out.outputFiles.find((file) => file.path.endsWith('.css'))?.text ?? '';
  return `<!doctype html><meta charset="utf-8"><title>bench:dashboard plot</title><style>${css}</style><div id="plot" style="width:1200px"></div><script>${js}</script>`;
}

async function measurePlot(browser) {
  const html = await plotPage();
  const server = createServer((request, response) => {
    if ((request.url ?? '').split('?')[0] !== PAGE_PATH) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}${PAGE_PATH}?points=${POINTS}`;
  const runs = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const page = await browser.newPage();
      await page.goto(url);
      await page.waitForFunction('window.plotBench !== undefined', undefined, { timeout: 60_000 });
      runs.push(await page.evaluate('window.plotBench'));
      await page.close();
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return runs;
}

async function measureFirstPage(browser) {
  const { startInspectionServer, defaultSettings } = await import('@klvscope/gateway');
  const dataDir = mkdtempSync(join(tmpdir(), 'klvscope-bench-dashboard-'));
  const server = await startInspectionServer({ port: 0, env: {}, log: { level: 'silent' }, apiKey: 'bench-dashboard-key-0123456789abcdef', defaultSettings: defaultSettings(), dataDir });
  const runs = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      // When the navigation and the files page's first content are in the DOM, in the page's own clock (0 = navigation start).
      await page.addInitScript(() => {
        const observer = new MutationObserver(() => {
          const main = document.querySelector('.dashboard main');
          if (document.querySelector('nav.top-nav') && main && main.firstElementChild && !main.querySelector('.loading')) {
            window.firstPageUsableMs = performance.now();
            observer.disconnect();
          }
        });
        observer.observe(document, { childList: true, subtree: true });
      });
      await page.goto(server.signInUrl);
      await page.waitForFunction('window.firstPageUsableMs !== undefined', undefined, { timeout: 30_000 });
      runs.push(await page.evaluate('window.firstPageUsableMs'));
      await context.close();
    }
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return runs;
}

function bundleSizes() {
  const folder = join(root, 'web', 'dist', 'dashboard');
  return readdirSync(folder)
    .filter((name) => !name.endsWith('.map'))
    .map((name) => {
      const bytes = readFileSync(join(folder, name));
      return { name, raw: statSync(join(folder, name)).size, gzip: gzipSync(bytes, { level: 9 }).length };
    });
}

const { chromium } = await import('playwright-core');
const { buildWeb } = await import('@klvscope/web/build');
await buildWeb();
const profile = mkdtempSync(join(tmpdir(), 'klvscope-bench-dashboard-chromium-'));
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, env: { ...process.env, HOME: profile } });
try {
  // The machine's load beside the numbers: on a shared machine they are only as good as it is quiet.
  console.log(`load average before: ${loadavg().map((load) => load.toFixed(1)).join(' ')}`);
  const plots = await measurePlot(browser);
  const drawn = plots.map((run) => run.drawnMs);
  const columns = plots.map((run) => run.columnsMs);
  console.log(`check view of ${plots[0].points.toLocaleString('en')} points (${plots[0].violations} violations), ${RUNS} fresh pages:`);
  console.log(`  points in hand to plot drawn: median ${ms(median(drawn))} (${spread(drawn)}); of it the columns: median ${ms(median(columns))}   target < 1000 ms`);
  const firstPage = await measureFirstPage(browser);
  console.log(`first page usable (navigation start to the signed-in files page), ${RUNS} fresh contexts: median ${ms(median(firstPage))} (${spread(firstPage)})   target < 1000 ms`);
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log('web/dist/dashboard:');
for (const { name, raw, gzip } of bundleSizes()) console.log(`  ${name.padEnd(16)} ${raw.toLocaleString('en').padStart(10)} bytes  ${gzip.toLocaleString('en').padStart(9)} gzipped`);
