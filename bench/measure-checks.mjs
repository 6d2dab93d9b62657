// Child process of bench/run.mjs: demux + KLV + every built-in check over FILE,
// as `klvscope inspect FILE` runs them (summaries only: points counted, neither
// kept nor streamed), to compare with measure-klv.mjs (demux + KLV alone).
import { readFileChunks } from '@klvscope/adapters';
import { createKlvAwareTsDemuxer, runPipeline } from '@klvscope/core';
import { BUILT_IN_CHECKS } from '@klvscope/plugins';
import { statSync } from 'node:fs';

const path = process.argv[2];
const half = statSync(path).size / 2;
const start = performance.now();
/** When the first half of the file was done: the second half shows the rate once the JIT has warmed up. */
let halfDoneAt = NaN;
const session = await runPipeline(readFileChunks(path), {
  checks: BUILT_IN_CHECKS,
  demuxerFactory: createKlvAwareTsDemuxer,
  keepPoints: false,
  onProgress: (bytesDone) => {
    if (Number.isNaN(halfDoneAt) && bytesDone >= half) halfDoneAt = performance.now();
  },
});
const endAt = performance.now();
const inProcessMs = endAt - start;
console.log(JSON.stringify({
  bytes: session.bytes,
  observations: session.observations,
  checks: session.checks.length,
  points: session.checks.reduce((n, c) => n + c.summary.points, 0),
  verdicts: Object.fromEntries(session.checks.map((c) => [c.checkId, c.summary.verdict])),
  inProcessMs,
  secondHalfMs: endAt - halfDoneAt,
  maxRssKb: process.resourceUsage().maxRSS,
}));
// One line to a pipe is written synchronously: exit now rather than wait for teardown.
process.exit(0);
