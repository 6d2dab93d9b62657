/**
 * The paced source (a file or the streaming module's demo, paced by its PCR)
 * on a machine too slow to keep up: its chunks come late, and it must still
 * leave the event loop a turn, or every timer and socket of the process
 * starves (the soak's service froze so, then ran out of memory).
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateTransportStream } from '@klvscope/core';
import { openFileSource } from '../src/paced-ts-source.js';

/** Busy for `ms`: work slower than the stream's pace. */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('a paced file source read by a consumer slower than the stream', function () {
  this.timeout(20_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'klvscope-paced-source-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lets timers run while it delivers late chunks', async () => {
    // 20 Mb/s: a chunk of 1,316 bytes is due every 0.53 ms; the consumer takes 1 ms a chunk.
    const path = join(dir, 'fast.ts');
    await writeFile(path, generateTransportStream({ durationSeconds: 2, bitrate: 20_000_000, seed: 3 }).bytes);
    const source = await openFileSource(pathToFileURL(path).href);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    let chunks = 0;
    const startedAt = performance.now();
    try {
      for await (const chunk of source) {
        expect(chunk.bytes.length).to.be.above(0);
        spin(1);
        if (++chunks === 1_500) break;
      }
    } finally {
      clearInterval(ticker);
      await source.close();
    }
    const elapsedMs = performance.now() - startedAt;
    // Late from the first hundred chunks on (each takes 1 ms), so a 10 ms timer is due at every turn
    // of the event loop: a turn at least every 32 chunks (16 here). Without them, only the file's
    // reads gave it a turn: 14 ticks in 1,500 chunks.
    expect(elapsedMs).to.be.above(1_400);
    expect(ticks, `${ticks} ticks of a 10 ms timer in ${Math.round(elapsedMs)} ms`).to.be.at.least(Math.floor(chunks / 32));
  });
});
