// Child process of bench/run.mjs: demux + KLV + every built-in check over FILE,
// as `klvscope inspect FILE` runs them (summaries only: points counted, neither
// kept nor streamed), to compare with measure-klv.mjs (demux + KLV alone).
import { readFileChunks } from '@klvscope/adapters';
import { createKlvAwareTsDemuxer, runPipeline } from '@klvscope/core';
import { BUILT_IN_CHECKS } from '@klvscope/plugins';

const path = process.argv[2];
const start = performance.now();
const session = await runPipeline(readFileChunks(path), {
  checks: BUILT_IN_CHECKS,
  demuxerFactory: createKlvAwareTsDemuxer,
  keepPoints: false,
});
const inProcessMs = performance.now() - start;
console.log(JSON.stringify({
  bytes: session.bytes,
  observations: session.observations,
  checks: session.checks.length,
  points: session.checks.reduce((n, c) => n + c.summary.points, 0),
  verdicts: Object.fromEntries(session.checks.map((c) => [c.checkId, c.summary.verdict])),
  inProcessMs,
  maxRssKb: process.resourceUsage().maxRSS,
}));
// One line to a pipe is written synchronously: exit now rather than wait for teardown.
process.exit(0);
