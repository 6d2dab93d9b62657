import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTransportStream, scanPacketRuns } from '@klvscope/core';
import { AdapterError } from '../src/adapter-error.js';
import { chunkRanges, readFileChunksInParallel } from '../src/parallel-file-chunks.js';

/** Open file descriptors of this process (Linux): the workers' descriptors are the process's. */
function openDescriptors(): number {
  return readdirSync('/proc/self/fd').length;
}

/** Threads of this process (Linux): a worker that did not end is still one. */
function threads(): number {
  return readdirSync('/proc/self/task').length;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('parallel file chunks (the workers of --threads)', function () {
  this.timeout(60_000);
  let dir: string;
  let path: string;
  let bytes: Uint8Array;
  const chunkSize = 64 * 1024;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'klvscope-parallel-chunks-'));
    path = join(dir, 'stream.ts');
    // About 40 chunks: each worker's buffers (four) are read into again many times.
    bytes = generateTransportStream({ durationSeconds: 2, bitrate: 10_000_000, seed: 3 }).bytes;
    await writeFile(path, bytes);
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const workers of [1, 2, 3]) {
    it(`hands on every chunk in order, unchanged until the next is asked for, with its runs (${workers} worker${workers > 1 ? 's' : ''}, a slow consumer)`, async () => {
      const ranges = chunkRanges(bytes.length, chunkSize, [100_003]);
      expect(ranges.length).to.be.greaterThan(workers * 4 * 3);
      let index = 0;
      for await (const chunk of readFileChunksInParallel(path, { workers, chunkSize, splitAt: [100_003] })) {
        const { position, length } = ranges[index];
        expect(chunk.offset).to.equal(position);
        // The workers run ahead while the consumer waits: the chunk's buffer must not be read into meanwhile.
        if (index % 5 === 0) await pause(15);
        expect(Buffer.compare(chunk.bytes, bytes.subarray(position, position + length))).to.equal(0, `chunk ${index}`);
        expect(chunk.packetRuns).to.deep.equal(scanPacketRuns(bytes.subarray(position, position + length)));
        index++;
      }
      expect(index).to.equal(ranges.length);
    });
  }

  it('ends its workers and closes the file when the consumer stops early', async () => {
    const descriptors = openDescriptors();
    const threadsBefore = threads();
    let seen = 0;
    for await (const chunk of readFileChunksInParallel(path, { workers: 2, chunkSize })) {
      expect(chunk.bytes.length).to.equal(chunkSize);
      if (++seen === 3) break;
    }
    expect(seen).to.equal(3);
    expect(openDescriptors()).to.equal(descriptors);
    // A worker's thread may take a moment to be gone after its exit event.
    for (let i = 0; i < 50 && threads() > threadsBefore; i++) await pause(20);
    expect(threads()).to.equal(threadsBefore);
  });

  it('fails with ERR_FILE_NOT_FOUND for a file that is not there', async () => {
    const error = await (async () => {
      for await (const _ of readFileChunksInParallel(join(dir, 'missing.ts'), { workers: 2 })) expect.fail('no chunk expected');
    })().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(AdapterError);
    expect((error as AdapterError).code).to.equal('ERR_FILE_NOT_FOUND');
  });
});
