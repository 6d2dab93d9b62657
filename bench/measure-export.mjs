// Child process of bench/run.mjs: exports every raw dataset of an ingest run as NDJSON
// (the text made chunk by chunk, as the REST export streams it, then dropped), and
// prints rows, bytes and the time taken, and the run's observations. Arguments: DATA_DIR RUN_ID.
import { RAW_DATASET_NAMES, Store, exportDataset } from '@klvscope/core/store';

const [dataDir, runId] = process.argv.slice(2);
const store = await Store.open({ dataDir });
const run = await store.openRun(runId);
const openedAt = performance.now();
const datasets = {};
let rows = 0;
let bytes = 0;
for (const name of RAW_DATASET_NAMES) {
  const started = performance.now();
  const output = exportDataset(run, name, 'ndjson');
  let size = 0;
  for (const chunk of output) size += Buffer.byteLength(chunk);
  datasets[name] = { rows: output.rows, bytes: size, ms: performance.now() - started };
  rows += output.rows;
  bytes += size;
}
const inProcessMs = performance.now() - openedAt;
const counts = run.counts;
await run.close();
await store.close();
const observations = Object.values(counts).reduce((sum, n) => sum + n, 0);
console.log(JSON.stringify({ rows, bytes, datasets, inProcessMs, observations, maxRssKb: process.resourceUsage().maxRSS }));
process.exit(0);
