/**
 * Child of the crash test, `ingest-until-killed.ts <dataDir> <file> [deferred]`: opens
 * the store (runs in parts of 200 rows), starts ingesting the file (with
 * `deferred`, of content new to the catalog: hashed beside the pass), and
 * prints `{ runId }` once 1 MB has been read (the run is then 'running' in
 * the saved catalog, several of its parts saved), slowing the read so the
 * parent's SIGKILL lands in the middle of the ingest.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { listIngestRuns } from '../../../src/store/catalog-ingest-runs.js';
import { Store } from '../../../src/store/store.js';
import { FileWorkflow } from '../../../src/workflow/file-workflow.js';

const [dataDir, path, deferred] = process.argv.slice(2);
const store = await Store.open({ dataDir, runParts: { partBytes: 1, rowsPerTransaction: 200 } });
const workflow = new FileWorkflow({
  store,
  checks: [],
  files: {
    size: async (file) => (await stat(file)).size,
    // 64 KiB at a time with a pause: an ingest the parent can catch half done.
    open: (file) =>
      (async function* () {
        for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) {
          yield chunk as Buffer;
          await sleep(5);
        }
      })(),
  },
});
const file = await workflow.identify(path, { deferNewContent: deferred === 'deferred' });
let told = false;
await workflow.ingest(file, {
  onProgress: (done) => {
    if (told || done < 1024 * 1024) return;
    told = true;
    // While its hash is pending, the run's is '' (and so is the identity's).
    const running = listIngestRuns(store.catalog.db, file.hash).find((run) => run.status === 'running');
    process.stdout.write(`${JSON.stringify({ runId: running?.id })}\n`);
  },
});
process.stdout.write(`${JSON.stringify({ finished: true })}\n`);
