// Builds the browser apps into static files with esbuild: web/dist/viewer/
// {index.html, viewer.js, viewer.css}. Everything the page needs is in them
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

/** Builds every app; resolves with esbuild's size report per output file (bytes). */
export async function buildWeb() {
  await mkdir(viewerDistDir, { recursive: true });
  const result = await build({
    absWorkingDir: webDir,
    entryPoints: { viewer: 'src/viewer/viewer-main.tsx' },
    outdir: viewerDistDir,
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
  await copyFile(join(webDir, 'src', 'viewer', 'index.html'), join(viewerDistDir, 'index.html'));
  const sizes = {};
  for (const [file, out] of Object.entries(result.metafile.outputs)) sizes[file] = out.bytes;
  return sizes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = await buildWeb();
  for (const [file, bytes] of Object.entries(sizes)) if (!file.endsWith('.map')) console.log(`${file}  ${(bytes / 1024).toFixed(1)} KiB`);
}
