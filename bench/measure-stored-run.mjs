// Child process of bench/run.mjs (section 5): checks a stored run of a long recording against the
// file. Prints its pid-stats dataset, the last page of its pcr-values dataset (read with the total
// as offset, as a client would), the file's last PCR (demuxed from the file's last 4 MB on its
// own), and the time each read took. Arguments: DATA_DIR RUN_ID FILE.
import { openSync, readSync, fstatSync, closeSync } from 'node:fs';
import { TsDemuxer } from '@klvscope/core';
import { Store, readDataset } from '@klvscope/core/store';

const [dataDir, runId, file] = process.argv.slice(2);
const store = await Store.open({ dataDir });
const started = performance.now();
const { pidStats, lastPcr } = await store.readRun(runId, (run) => {
  const pidStats = readDataset(run, 'mpegts/pid-stats', { limit: 100_000 }).rows;
  const { total } = readDataset(run, 'mpegts/pcr-values', { limit: 1 });
  const lastPcr = readDataset(run, 'mpegts/pcr-values', { offset: total - 1, limit: 1000 }).rows;
  return { pidStats, lastPcr };
});
const readMs = performance.now() - started;
await store.close();

// The file's tail, from a packet boundary (the recording has 188-byte packets and no partial one).
const fd = openSync(file, 'r');
const size = fstatSync(fd).size;
const tailStart = Math.max(0, Math.floor((size - 4 * 1024 * 1024) / 188) * 188);
const tail = Buffer.alloc(size - tailStart);
readSync(fd, tail, 0, tail.length, tailStart);
closeSync(fd);
let last = null;
const demuxer = new TsDemuxer((o) => {
  if (o.kind === 'pcr') last = { pid: o.pid, pcr27MHz: o.pcr27MHz, offset: tailStart + o.offset };
});
demuxer.push(tail);
demuxer.end();
console.log(JSON.stringify({ pidStats, lastPcr, filesLastPcr: last, readMs, maxRssKb: process.resourceUsage().maxRSS }));
process.exit(0);
