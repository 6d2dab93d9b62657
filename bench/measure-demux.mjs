// Child process of bench/run.mjs: demuxes FILE with every observation produced (and counted).
// Prints one JSON line; the parent times the whole process from spawn to exit.
import { readFileChunks } from '@klvscope/adapters';
import { TsDemuxer } from '@klvscope/core';

const path = process.argv[2];
let bytes = 0;
let observations = 0;
const start = performance.now();
const demuxer = new TsDemuxer(() => {
  observations++;
});
for await (const chunk of readFileChunks(path)) {
  bytes += chunk.bytes.length;
  demuxer.push(chunk.bytes);
}
demuxer.end();
const ms = performance.now() - start;
console.log(JSON.stringify({ bytes, observations, packets: demuxer.packets, inProcessMs: ms, maxRssKb: process.resourceUsage().maxRSS }));
// One line to a pipe is written synchronously: exit now rather than wait for teardown.
process.exit(0);
