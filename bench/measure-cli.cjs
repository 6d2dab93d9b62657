// Child process of bench/run.mjs: runs the `klvscope` CLI exactly as the installed command
// does (gateway/bin/klvscope.cjs, with the given arguments) and prints, as the last line of
// stderr when it exits, the process's peak RSS and its processor time: all its threads, and
// the main thread's alone (Linux's /proc; null elsewhere).
'use strict';
const { readFileSync } = require('node:fs');

/** The main thread's user and system time in ms, from /proc (in clock ticks of 10 ms), or null. */
function mainThreadCpuMs() {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\n${JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, cpuMs: (user + system) / 1000, mainThreadCpuMs: mainThreadCpuMs() })}\n`);
});
require('../gateway/bin/klvscope.cjs');
