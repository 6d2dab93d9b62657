// Child process of bench/run.mjs: exports every raw dataset of an ingest run as NDJSON
// (the text made chunk by chunk, as the REST export streams it, then dropped), and
// prints rows, bytes and the time taken, and the run's observations. Arguments: DATA_DIR RUN_ID.
// Then, for comparison, the same export again in this process (its code compiled, as in a
// service that has exported before), and V8's own JSON.stringify of the same rows already
// made as objects (read page by page, untimed): the cost of the text alone.
// With a third argument, `arrow` or `parquet`: the nine datasets in that columnar format instead
// (issue 34), with the CPU time it took, and its own peak RSS (a process of its own, so the NDJSON run's peak is not in it):
// once in this fresh process, then again in the same process (warm: as a running service exports a second time).
import { RAW_DATASET_NAMES, Store, exportDataset, exportDatasetColumnar, readDataset } from '@klvscope/core/store';

const [dataDir, runId, columnar] = process.argv.slice(2);
const store = await Store.open({ dataDir });
const run = await store.openRun(runId);

/** CPU time (user and system, every thread) since `since`, in ms: on a machine shared with other work, steadier than the wall time. */
function cpuMsSince(since) {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
}

/** The nine datasets in the columnar format: rows, bytes, wall and CPU ms, each dataset's too. */
async function exportAllColumnar(format) {
  const started = performance.now();
  const startedCpu = process.cpuUsage();
  const datasets = {};
  let rows = 0;
  let bytes = 0;
  for (const name of RAW_DATASET_NAMES) {
    const begun = performance.now();
    const begunCpu = process.cpuUsage();
    const output = exportDatasetColumnar(run, name, format);
    let size = 0;
    for await (const chunk of output) size += chunk.byteLength;
    datasets[name] = { rows: output.rows, bytes: size, ms: performance.now() - begun, cpuMs: cpuMsSince(begunCpu) };
    rows += output.rows;
    bytes += size;
  }
  return { rows, bytes, datasets, ms: performance.now() - started, cpuMs: cpuMsSince(startedCpu) };
}

if (columnar !== undefined) {
  // Fresh: the first export of this process (its figure holds the first compile of the code and, for Parquet, parquet-wasm's load).
  const fresh = await exportAllColumnar(columnar);
  const maxRssKb = process.resourceUsage().maxRSS;
  // Warm: the same export again in this process, as a running service exports for the second time and after.
  const warm = await exportAllColumnar(columnar);
  const warmMaxRssKb = process.resourceUsage().maxRSS;
  await run.close();
  await store.close();
  console.log(
    JSON.stringify({
      format: columnar,
      rows: fresh.rows,
      bytes: fresh.bytes,
      datasets: fresh.datasets,
      inProcessMs: fresh.ms,
      cpuMs: fresh.cpuMs,
      maxRssKb,
      warmMs: warm.ms,
      warmCpuMs: warm.cpuMs,
      warmDatasets: warm.datasets,
      warmMaxRssKb,
    }),
  );
  process.exit(0);
}

function exportAll() {
  const started = performance.now();
  const datasets = {};
  let rows = 0;
  let bytes = 0;
  for (const name of RAW_DATASET_NAMES) {
    const begun = performance.now();
    const output = exportDataset(run, name, 'ndjson');
    let size = 0;
    for (const chunk of output) size += Buffer.byteLength(chunk);
    datasets[name] = { rows: output.rows, bytes: size, ms: performance.now() - begun };
    rows += output.rows;
    bytes += size;
  }
  return { rows, bytes, datasets, ms: performance.now() - started };
}

/** Milliseconds JSON.stringify takes over every row of the nine datasets, given as objects a page at a time. */
function stringifyAll() {
  let ms = 0;
  for (const name of RAW_DATASET_NAMES) {
    let cursor;
    do {
      const page = readDataset(run, name, { limit: 10_000, cursor });
      const started = performance.now();
      let length = 0;
      for (const row of page.rows) length += JSON.stringify(row).length + 1;
      ms += performance.now() - started;
      if (length < 0) throw new Error('unreachable');
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }
  return ms;
}

const first = exportAll();
// The peak of the export itself: the comparisons after it hold more (a page of row objects).
const exportMaxRssKb = process.resourceUsage().maxRSS;
const again = exportAll();
const stringifyMs = stringifyAll();
const counts = run.counts;
await run.close();
await store.close();
const observations = Object.values(counts).reduce((sum, n) => sum + n, 0);
console.log(
  JSON.stringify({ rows: first.rows, bytes: first.bytes, datasets: first.datasets, inProcessMs: first.ms, againMs: again.ms, stringifyMs, observations, maxRssKb: exportMaxRssKb }),
);
process.exit(0);
