#!/usr/bin/env -S node --v8-pool-size=0
// The installed `klvscope` command: runs the bundled CLI (`npm run build` makes it) through
// load-cli.cjs. A CommonJS file, so that Node starts it without its ES module loader.
// --v8-pool-size=0 sizes V8's background threads (JIT compiles, GC helpers) by the
// machine's parallelism instead of Node's fixed 4: on a 2-core machine, 4 of them compete
// with the main thread, and an inspection runs ~15 % slower.
'use strict';
const { loadCli } = require('./load-cli.cjs');

loadCli()
  .runCli(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
