// Loads the bundled CLI, gateway/dist/klvscope.cjs, with the V8 code cache that `npm run build`
// made for it (klvscope.cjs.cache, from runs of `inspect --store`: scripts/make-code-cache.cjs).
// With it V8 neither parses the bundle nor compiles the functions an inspection calls; that
// is ~30 ms of the ~150 ms of an inspection whose stages are all reused. A cache V8 rejects
// (another Node version) costs only that time, never a result.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');

const BUNDLE = join(__dirname, '..', 'dist', 'klvscope.cjs');
const CODE_CACHE = `${BUNDLE}.cache`;

// sql.js's WebAssembly stays on V8's baseline compiler (Liftoff) until it has run a long
// while: at V8's default budget the catalog queries of an inspection whose stages are all
// reused send sqlite's main loop to the optimizing compiler, ~35 ms that the process then
// waits for at exit. Set here rather than on the command line, so that `node klvscope.cjs`
// has it too; it is read when sql.js is instantiated, and V8 checks it against the code cache.
v8.setFlagsFromString('--wasm-tiering-budget=2147483647');

/**
 * @returns {{ runCli: (argv: string[]) => Promise<number>, codeCache: 'accepted' | 'rejected' | 'absent', writeCodeCache: () => void }}
 */
function loadCli() {
  const source = readFileSync(BUNDLE, 'utf8');
  let cachedData;
  try {
    cachedData = readFileSync(CODE_CACHE);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(source), {
    filename: BUNDLE,
    cachedData,
  });
  // The bundle's import() of check modules and serialport: see core/src/kernel/import-module.ts.
  globalThis[Symbol.for('klvscope.importModule')] = (specifier) => import(specifier);
  const bundle = { exports: {} };
  script.runInThisContext()(bundle.exports, Module.createRequire(BUNDLE), bundle, BUNDLE, dirname(BUNDLE));
  return {
    runCli: bundle.exports.runCli,
    codeCache: cachedData === undefined ? 'absent' : script.cachedDataRejected ? 'rejected' : 'accepted',
    // After the runs: the cache then holds the functions they compiled, not only the top level.
    writeCodeCache: () => writeFileSync(CODE_CACHE, script.createCachedData()),
  };
}

module.exports = { loadCli };
