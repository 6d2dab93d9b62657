// Builds the browser apps into static files with esbuild, one folder each:
// web/dist/<app>/{index.html, <app>.js, <app>.css}. Everything the page needs is in them
// (Leaflet's CSS and its few images inlined as data URLs), referenced by
// relative paths, so the folder works served at any path and offline.
// `npm run build` runs this file; the browser tests call buildWeb() in a
// before hook, so `npm test` needs no build first.
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = dirname(fileURLToPath(import.meta.url));

/** The folder the viewer is built into, served at `/` of the streaming module. */
export const viewerDistDir = join(webDir, 'dist', 'viewer');
/** The folder the dashboard is built into, served at `/` of the inspection service. */
export const dashboardDistDir = join(webDir, 'dist', 'dashboard');
/** The folder the relay console is built into, served at `/` of the channel relay. */
export const relayConsoleDistDir = join(webDir, 'dist', 'relay-console');

/** Each app: its entry, its folder, its page. */
const APPS = [
  { name: 'viewer', entry: 'src/viewer/viewer-main.tsx', outdir: viewerDistDir, page: 'src/viewer/index.html' },
  { name: 'dashboard', entry: 'src/dashboard/dashboard-main.tsx', outdir: dashboardDistDir, page: 'src/dashboard/index.html' },
  { name: 'relay-console', entry: 'src/relay-console/relay-console-main.tsx', outdir: relayConsoleDistDir, page: 'src/relay-console/index.html' },
];

/** Builds every app; resolves with esbuild's size report per output file (bytes). */
export async function buildWeb() {
  const sizes = {};
  for (const app of APPS) Object.assign(sizes, await buildApp(app));
  return sizes;
}

async function buildApp({ name, entry, outdir, page }) {
  await mkdir(outdir, { recursive: true });
  const result = await build({
    absWorkingDir: webDir,
    entryPoints: { [name]: entry },
    outdir,
    bundle: true,
    // A classic script (not a module): it also runs from file://, where module scripts are refused.
    format: 'iife',
    target: ['chrome110', 'firefox110', 'safari16'],
    // Our packages' TypeScript sources (type-only imports from core are erased).
    conditions: ['source'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: 'linked',
    // Leaflet's CSS names a few small PNGs (layer control, markers): inline them, so no image is fetched.
    loader: { '.png': 'dataurl', '.svg': 'dataurl' },
    metafile: true,
    logLevel: 'warning',
  });
  await copyFile(join(webDir, page), join(outdir, 'index.html'));
  const sizes = {};
  for (const [file, out] of Object.entries(result.metafile.outputs)) sizes[file] = out.bytes;
  return sizes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = await buildWeb();
  for (const [file, bytes] of Object.entries(sizes)) if (!file.endsWith('.map')) console.log(`${file}  ${(bytes / 1024).toFixed(1)} KiB`);
}
