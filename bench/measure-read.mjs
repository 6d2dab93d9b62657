// Child process of bench/run.mjs: reads FILE through the file adapter, no parsing.
// Prints one JSON line; the parent times the whole process from spawn to exit.
// With `--sha256`, also hashes each chunk as it comes, on this thread, and prints the time
// that took (`hashMs`): what the first stored inspection adds to the file's processing to
// know its identity, whichever thread does it.
import { createHash } from 'node:crypto';
import { readFileChunks } from '@klvscope/adapters';

const [path, option] = process.argv.slice(2);
const hash = option === '--sha256' ? createHash('sha256') : null;
let bytes = 0;
let hashMs = 0;
const start = performance.now();
for await (const chunk of readFileChunks(path)) {
  bytes += chunk.bytes.length;
  if (hash === null) continue;
  const begun = performance.now();
  hash.update(chunk.bytes);
  hashMs += performance.now() - begun;
}
const ms = performance.now() - start;
console.log(JSON.stringify({ bytes, inProcessMs: ms, hashMs, maxRssKb: process.resourceUsage().maxRSS }));
// One line to a pipe is written synchronously: exit now rather than wait for teardown.
process.exit(0);
