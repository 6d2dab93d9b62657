/**
 * A live session's database on a disk that fills (issue 35), run by
 * full-disk.test.ts on a tmpfs of its own (test-support/tiny-filesystem.ts):
 * rows are appended and saved until a save is refused; then a filler file
 * that took the rest of the space is deleted and the next save goes through.
 * Prints one JSON line of what happened, for the test to judge.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from '../../src/store/store-error.js';
import { Store } from '../../src/store/store.js';

const folder = process.argv[2];
const dataDir = join(folder, 'data');
const store = await Store.open({ dataDir });
const database = await store.openLiveDatabase('full-disk', { create: true, partRows: 50 });
// A filler that leaves the database a little room: deleting it is "space returns".
const filler = join(folder, 'filler');
let fillerBytes = 0;
for (let chunk = 64 * 1024; chunk >= 1024; chunk /= 2) {
  try {
    for (;;) {
      writeFileSync(filler, Buffer.alloc(chunk), { flag: 'a' });
      fillerBytes += chunk;
    }
  } catch {
    // This chunk no longer fits: try a smaller one, so the disk is full to within a kilobyte.
  }
}
rmSync(filler);
writeFileSync(filler, Buffer.alloc(Math.max(0, fillerBytes - 96 * 1024)));

const finding = (seq: number) => ({ seq, checkId: 'mpegts-errors', severity: 'error', message: `finding ${seq} ${'x'.repeat(200)}`, emittedAt: seq });
let appended = 0;
let savedThrough = 0;
let refusal: { code: string; message: string; details: unknown } | null = null;
for (let batch = 0; batch < 200 && refusal === null; batch++) {
  const rows = Array.from({ length: 40 }, () => finding(++appended));
  database.append(rows, []);
  try {
    await database.save({ findings: 100_000, metadata: 100_000 });
    savedThrough = appended;
  } catch (error) {
    refusal = error instanceof StoreError ? { code: error.code, message: error.message, details: error.details } : { code: 'not a StoreError', message: String(error), details: null };
  }
}
// What a process that died now would find: the files on disk, opened by another store.
await database.close();
await store.close();
const afterCrash = await Store.open({ dataDir });
const onDisk = await afterCrash.openLiveDatabase('full-disk', { partRows: 50 });
const keptOnDisk = (await onDisk.findings<{ seq: number }>({ limit: 100_000, offset: 0 })).total;
await onDisk.close();
await afterCrash.close();

// Space returns: the same rows again (the head lost nothing in memory in a live process; here they are appended anew) save.
rmSync(filler);
const again = await Store.open({ dataDir });
const resumed = await again.openLiveDatabase('full-disk', { partRows: 50 });
resumed.append(Array.from({ length: appended - savedThrough }, (_, i) => finding(savedThrough + i + 1)), []);
await resumed.save({ findings: 100_000, metadata: 100_000 });
await resumed.close();
const reopened = await again.openLiveDatabase('full-disk', { partRows: 50 });
const page = await reopened.findings<{ seq: number }>({ limit: 100_000, offset: 0 });
await reopened.close();
await again.close();
process.stdout.write(`${JSON.stringify({ appended, savedThrough, refusal, keptOnDisk, afterSpace: { total: page.total, seqs: page.rows.map((row) => row.seq) }, catalogReadable: readFileSync(join(dataDir, 'catalog.sqlite')).length > 0 })}\n`);
process.exit(0);
