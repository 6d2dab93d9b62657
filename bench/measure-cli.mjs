// Child process of bench/run.mjs: runs the bundled `klvscope` CLI (gateway/dist/klvscope.mjs)
// with the given arguments, as gateway/bin/klvscope.js does, and prints the process's peak RSS
// as the last line of stderr when it exits.
process.on('exit', () => {
  process.stderr.write(`\n${JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS })}\n`);
});
process.argv = [process.argv[0], 'klvscope', ...process.argv.slice(2)];
await import('../gateway/dist/klvscope.mjs');
