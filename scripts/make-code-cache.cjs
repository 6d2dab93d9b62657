// Part of `npm run build` (scripts/bundle.mjs runs it in a process of its own): makes the V8
// code cache of the bundled CLI, gateway/dist/klvscope.cjs.cache. The cache holds the
// functions compiled while running, so it is written after the commands a user runs most:
// a short generated stream inspected twice with --store (every stage run, then every stage
// reused), in a temporary folder.
'use strict';
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { loadCli } = require('../gateway/bin/load-cli.cjs');

async function run(cli, ...commands) {
  for (const argv of commands) {
    const code = await cli.runCli(argv);
    if (code !== 0) throw new Error(`klvscope ${argv.join(' ')} exited with ${code}`);
  }
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'klvscope-code-cache-'));
  try {
    const file = join(work, 'sample.ts');
    const data = join(work, 'data');
    const cli = loadCli();
    await run(cli, ['generate', file, '--duration', '2', '--klv', 'async'], ['inspect', file, '--store', data], ['inspect', file, '--store', data]);
    cli.writeCodeCache();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`make-code-cache: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
