// Child process of bench/run.mjs: reads FILE through the file adapter, no parsing.
// Prints one JSON line; the parent times the whole process from spawn to exit.
import { readFileChunks } from '@klvscope/adapters';

const path = process.argv[2];
let bytes = 0;
const start = performance.now();
for await (const chunk of readFileChunks(path)) bytes += chunk.bytes.length;
const ms = performance.now() - start;
console.log(JSON.stringify({ bytes, inProcessMs: ms, maxRssKb: process.resourceUsage().maxRSS }));
// One line to a pipe is written synchronously: exit now rather than wait for teardown.
process.exit(0);
