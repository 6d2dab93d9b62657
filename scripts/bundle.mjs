// Part of `npm run build`: bundles the CLI and the benchmark children into
// single files with esbuild. Loading one tree-shaken file instead of some 200
// small ES modules cuts start-up time (the CLI starts ~2x faster), which is
// most of the run time of a short inspection.
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bundle the TypeScript sources directly, through the packages' "source" export condition.
  conditions: ['source'],
  sourcemap: 'linked',
  logLevel: 'warning',
  // CommonJS dependencies bundled into ESM may call require().
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
};

await Promise.all([
  build({ ...common, entryPoints: ['gateway/src/cli/main.ts'], outfile: 'gateway/dist/klvscope.mjs' }),
  build({ ...common, entryPoints: ['bench/measure-read.mjs', 'bench/measure-demux.mjs', 'bench/measure-klv.mjs', 'bench/measure-checks.mjs', 'bench/measure-export.mjs'], outdir: 'bench/dist', outExtension: { '.js': '.mjs' } }),
]);
