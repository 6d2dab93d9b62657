/**
 * Child of the lock and store tests, `store-holder.ts <mode> <dataDir>`:
 * - `hold`: opens the store, records one completed and one running ingest
 *   run, saves, prints `{ pid, completedId, runningId }`, and holds the
 *   folder until its stdin closes (then closes the store) or it is killed;
 * - `try`: tries to open the store and prints `{ opened: true }` or the error's `{ code, message }`.
 */
import { createIngestRun, finishIngestRun } from '../../../src/store/catalog-ingest-runs.js';
import { Store } from '../../../src/store/store.js';
import { StoreError } from '../../../src/store/store-error.js';

const [mode, dataDir] = process.argv.slice(2);

if (mode === 'hold') {
  const store = await Store.open({ dataDir });
  const completed = createIngestRun(store.catalog.db, { hash: 'a'.repeat(64), path: '/recordings/done.ts', startedMs: 1000 });
  finishIngestRun(store.catalog.db, completed.id, { status: 'completed', finishedMs: 2000, counts: { pcr: 5 } });
  const running = createIngestRun(store.catalog.db, { hash: 'a'.repeat(64), path: '/recordings/done.ts', startedMs: 3000 });
  await store.saveCatalog();
  process.stdout.write(`${JSON.stringify({ pid: process.pid, completedId: completed.id, runningId: running.id })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void store.close().then(() => process.exit(0)));
} else {
  try {
    await (await Store.open({ dataDir })).close();
    process.stdout.write(`${JSON.stringify({ opened: true })}\n`);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    process.stdout.write(`${JSON.stringify({ code: error.code, message: error.message })}\n`);
  }
}
