// Child process of bench/run.mjs: runs the `klvscope` CLI exactly as the installed command
// does (gateway/bin/klvscope.cjs, with the given arguments) and prints the process's peak RSS
// as the last line of stderr when it exits.
'use strict';
process.on('exit', () => {
  process.stderr.write(`\n${JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS })}\n`);
});
require('../gateway/bin/klvscope.cjs');
