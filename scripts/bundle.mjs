// Part of `npm run build`: bundles the CLI and the benchmark children into
// single files with esbuild. Loading one tree-shaken file instead of some 200
// small ES modules cuts start-up time (the CLI starts ~2x faster), which is
// most of the run time of a short inspection.
// The CLI is one CommonJS file, gateway/dist/klvscope.cjs, loaded by
// gateway/bin/load-cli.cjs with a V8 code cache made here from a few runs
// (scripts/make-code-cache.cjs). The HTTP server's modules (Fastify and its
// dependencies) are in it too, which costs the other commands only reading
// them (a few ms): their module bodies run only when `serve` imports them, and
// with the cache V8 does not parse them. One file, because a second bundle for
// `serve` would hold second copies of the classes that errors are told apart by.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Bundle the TypeScript sources directly, through the packages' "source" export condition.
  conditions: ['source'],
  sourcemap: 'linked',
  logLevel: 'warning',
  // serialport finds its native binding relative to its own files, and parquet-wasm its WebAssembly module
  // (by __dirname): load them from node_modules, not from the bundle.
  external: ['serialport', 'parquet-wasm'],
};

await Promise.all([
  build({
    ...common,
    format: 'cjs',
    entryPoints: ['gateway/src/cli/run-cli.ts'],
    outfile: 'gateway/dist/klvscope.cjs',
    // sql.js's script is bundled here, unlike in the benchmarks' ES modules (CommonJS has __dirname), so that the code cache covers it.
    // CommonJS has require, __filename and no import.meta: the one use of import.meta.url (finding sql.js) gets the bundle's own URL.
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    define: { 'import.meta.url': '__bundleUrl' },
    // A third smaller, so a third less to read at each start (~8 ms); names are kept, for stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
  }),
  build({
    ...common,
    format: 'esm',
    entryPoints: ['bench/measure-read.mjs', 'bench/measure-demux.mjs', 'bench/measure-klv.mjs', 'bench/measure-checks.mjs', 'bench/measure-export.mjs', 'bench/measure-stored-run.mjs', 'bench/measure-columnar-floor.mjs'],
    outdir: 'bench/dist',
    outExtension: { '.js': '.mjs' },
    // CommonJS dependencies bundled into ESM may call require().
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    // sql.js's script reads __dirname when it starts, which an ES module bundle lacks.
    external: [...common.external, 'sql.js'],
  }),
]);

// The code cache is made by a process of its own, started with the CLI's options.
const made = spawnSync(process.execPath, ['--v8-pool-size=0', 'scripts/make-code-cache.cjs'], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
if (made.status !== 0) throw new Error(`the CLI's code cache could not be made:\n${made.stderr}`);
