// Child process of bench/run.mjs: demux + KLV + every built-in check over FILE
// (points counted, not kept), to compare with measure-klv.mjs (demux + KLV alone).
import { readFileChunks } from '@klvscope/adapters';
import { createKlvAwareTsDemuxer, runPipeline } from '@klvscope/core';
import { BUILT_IN_CHECKS } from '@klvscope/plugins';

const path = process.argv[2];
let points = 0;
const start = performance.now();
const session = await runPipeline(readFileChunks(path), {
  checks: BUILT_IN_CHECKS,
  demuxerFactory: createKlvAwareTsDemuxer,
  keepPoints: false,
  pointSinks: [() => points++],
});
const inProcessMs = performance.now() - start;
console.log(JSON.stringify({
  bytes: session.bytes,
  observations: session.observations,
  checks: session.checks.length,
  points,
  verdicts: Object.fromEntries(session.checks.map((c) => [c.checkId, c.summary.verdict])),
  inProcessMs,
  maxRssKb: process.resourceUsage().maxRSS,
}));
// One line to a pipe is written synchronously: exit now rather than wait for teardown.
process.exit(0);
