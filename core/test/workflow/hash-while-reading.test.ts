import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SourceChunk } from '../../src/kernel/pipeline.js';
import { HashWhileReading } from '../../src/workflow/hash-while-reading.js';
import { useTemporaryFolder } from '../store/temporary-folder.js';

const CHUNK = 256 * 1024;

function contentOf(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + seed) & 0xff;
  return bytes;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * `content` in chunks as readFileChunks gives them: three buffers taken in
 * turn, a chunk's memory reused for the chunk after next as soon as the next
 * is asked for (here overwritten with noise at once, so a hash that read a
 * chunk late would be wrong). In shared memory or not, or in the `buffers` given.
 */
function* chunksOf(content: Uint8Array, shared: boolean, buffers = Array.from({ length: 3 }, () => (shared ? new Uint8Array(new SharedArrayBuffer(CHUNK)) : new Uint8Array(CHUNK)))): Generator<SourceChunk> {
  for (let offset = 0, turn = 0; offset < content.length; offset += CHUNK, turn = (turn + 1) % buffers.length) {
    const bytes = buffers[turn].subarray(0, Math.min(CHUNK, content.length - offset));
    bytes.set(content.subarray(offset, offset + bytes.length));
    yield { bytes, offset };
    bytes.fill(0xa5);
  }
}

async function readThrough(hashing: HashWhileReading, source: Iterable<SourceChunk>): Promise<number> {
  let bytes = 0;
  for await (const chunk of hashing.through(source)) bytes += (chunk as SourceChunk).bytes.length;
  return bytes;
}

describe('HashWhileReading', () => {
  const folder = useTemporaryFolder('klvscope-hash-while-reading-');
  // The file on disk differs from what the pass reads (same size): the digest tells which of the two was hashed.
  const passContent = contentOf(5 * CHUNK + 1234, 1);
  const fileContent = contentOf(passContent.length, 2);
  let path = '';
  beforeEach(async () => {
    path = join(folder.path, 'recording.ts');
    await writeFile(path, fileContent);
  });

  it("hashes chunks in shared memory where they lie, each before the next is asked for, without reading the file", async () => {
    const hashing = new HashWhileReading(path, passContent.length, new AbortController().signal);
    expect(await readThrough(hashing, chunksOf(passContent, true))).to.equal(passContent.length);
    expect(await hashing.digest()).to.equal(sha256(passContent));
  });

  it('hashes chunks that are views into one larger shared allocation, as reads past the page cache give them (adapters direct-file-reads.ts)', async () => {
    const memory = new SharedArrayBuffer(5 * CHUNK + 4096);
    const views = Array.from({ length: 5 }, (_, index) => new Uint8Array(memory, 48 + index * CHUNK, CHUNK));
    const hashing = new HashWhileReading(path, passContent.length, new AbortController().signal);
    expect(await readThrough(hashing, chunksOf(passContent, true, views))).to.equal(passContent.length);
    expect(await hashing.digest()).to.equal(sha256(passContent));
  });

  it('hashes the file itself when the chunks are not in shared memory, or the pass read another number of bytes than its size', async () => {
    const unshared = new HashWhileReading(path, passContent.length, new AbortController().signal);
    await readThrough(unshared, chunksOf(passContent, false));
    expect(await unshared.digest()).to.equal(sha256(fileContent));

    const short = new HashWhileReading(path, passContent.length, new AbortController().signal);
    await readThrough(short, chunksOf(passContent.subarray(0, 3 * CHUNK), true));
    expect(await short.digest()).to.equal(sha256(fileContent));

    // No chunk at all (an empty pass): the file is hashed.
    const none = new HashWhileReading(path, passContent.length, new AbortController().signal);
    await readThrough(none, []);
    expect(await none.digest()).to.equal(sha256(fileContent));
  });

  it('hashes the file itself when the chunks do not follow one another from offset 0', async () => {
    const skipping = new HashWhileReading(path, passContent.length, new AbortController().signal);
    const chunks = [...chunksOf(passContent, true)].map((chunk) => ({ bytes: chunk.bytes, offset: chunk.offset + 1 }));
    await readThrough(skipping, chunks);
    expect(await skipping.digest()).to.equal(sha256(fileContent));
  });

  it('rejects with an AbortError when its signal is aborted during the pass', async () => {
    const controller = new AbortController();
    const hashing = new HashWhileReading(path, passContent.length, controller.signal);
    let chunks = 0;
    for await (const chunk of hashing.through(chunksOf(passContent, true))) {
      expect((chunk as SourceChunk).bytes.length).to.be.greaterThan(0);
      if (++chunks === 2) controller.abort();
    }
    expect(await hashing.digest().catch((error: unknown) => error)).to.have.property('name', 'AbortError');
  });
});
