import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { appendFile, chmod, mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type { SourceChunk } from '@klvscope/core';
import { AdapterError } from '../src/adapter-error.js';
import { DEFAULT_CHUNK_SIZE, fileSize, readFileChunks, readFileHead, type ReadFileChunksOptions } from '../src/file.js';

/** Deterministic, non-repeating-looking bytes. */
function content(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  return bytes;
}

/** Every chunk, copied (chunk memory is reused once the next one is asked for). */
async function readAll(path: string, options: ReadFileChunksOptions = {}): Promise<SourceChunk[]> {
  const chunks: SourceChunk[] = [];
  for await (const chunk of readFileChunks(path, options)) chunks.push({ bytes: chunk.bytes.slice(), offset: chunk.offset });
  return chunks;
}

function joined(chunks: SourceChunk[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.bytes.length, 0));
  for (const c of chunks) out.set(c.bytes, c.offset);
  return out;
}

async function failure(promise: Promise<unknown>): Promise<AdapterError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AdapterError)) throw new Error(`expected an AdapterError, got ${String(error)}`);
  return error;
}

/** Open file descriptors of this process (Linux), to see that the file is closed. */
function openDescriptors(): number {
  return readdirSync('/proc/self/fd').length;
}

/** Whether this process has `path` open for reading past the page cache (O_DIRECT in /proc/self/fdinfo's octal flags). */
function openDirect(path: string): boolean {
  return readdirSync('/proc/self/fd').some((fd) => {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) !== path) return false;
      const flags = /flags:\s+([0-7]+)/.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
      return flags !== null && (parseInt(flags[1], 8) & constants.O_DIRECT) !== 0;
    } catch {
      return false;
    }
  });
}

/** Why a file in `dir` cannot be read past the page cache here (no O_DIRECT, or a file system such as tmpfs refuses it), or null. */
function directReadsRefused(path: string): string | null {
  if (constants.O_DIRECT === undefined) return 'this system has no O_DIRECT';
  try {
    closeSync(openSync(path, constants.O_RDONLY | constants.O_DIRECT));
    return null;
  } catch (error) {
    return `the file system of ${path} refuses O_DIRECT (${(error as NodeJS.ErrnoException).code})`;
  }
}

describe('file adapter', () => {
  let dir: string;
  const file = (name: string) => join(dir, name);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'klvscope-file-'));
    await writeFile(file('ten-thousand.bin'), content(10_000));
    await writeFile(file('three-chunks.bin'), content(3 * 4096));
    await writeFile(file('empty.bin'), new Uint8Array(0));
    await mkdir(file('folder'));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  describe('readFileChunks', () => {
    it('reads the whole file in chunks with contiguous offsets, the last one shorter', async () => {
      const chunks = await readAll(file('ten-thousand.bin'), { chunkSize: 4096 });
      expect(chunks.map((c) => [c.offset, c.bytes.length])).to.deep.equal([
        [0, 4096],
        [4096, 4096],
        [8192, 1808],
      ]);
      expect(joined(chunks)).to.deep.equal(content(10_000));
    });

    it('gives no empty chunk at the end of a file that is a multiple of the chunk size', async () => {
      const chunks = await readAll(file('three-chunks.bin'), { chunkSize: 4096 });
      expect(chunks.map((c) => c.offset)).to.deep.equal([0, 4096, 8192]);
      expect(joined(chunks)).to.deep.equal(content(3 * 4096));
    });

    it('gives no chunk for an empty file', async () => {
      const progress: number[] = [];
      expect(await readAll(file('empty.bin'), { onProgress: (done) => progress.push(done) })).to.deep.equal([]);
      expect(progress).to.deep.equal([]);
    });

    it('reads 4 MiB chunks by default', async () => {
      await writeFile(file('five-mib.bin'), content(5 * 1024 * 1024));
      const chunks = await readAll(file('five-mib.bin'));
      expect(DEFAULT_CHUNK_SIZE).to.equal(4 * 1024 * 1024);
      expect(chunks.map((c) => c.bytes.length)).to.deep.equal([4 * 1024 * 1024, 1024 * 1024]);
      expect(joined(chunks)).to.deep.equal(content(5 * 1024 * 1024));
    });

    it('reports progress after each chunk with the bytes read and the file size', async () => {
      const progress: Array<[number, number]> = [];
      await readAll(file('ten-thousand.bin'), { chunkSize: 4096, onProgress: (done, total) => progress.push([done, total]) });
      expect(progress).to.deep.equal([
        [4096, 10_000],
        [8192, 10_000],
        [10_000, 10_000],
      ]);
    });

    it('reuses chunk memory: a chunk is valid until the next one is asked for', async () => {
      const kept: Uint8Array[] = [];
      for await (const chunk of readFileChunks(file('ten-thousand.bin'), { chunkSize: 2048 })) kept.push(chunk.bytes);
      // Two reads run ahead of the consumer: three buffers in turn.
      expect(kept[0].buffer).to.equal(kept[3].buffer);
      expect(kept[0].buffer).not.to.equal(kept[1].buffer);
      expect(kept[0].buffer).not.to.equal(kept[2].buffer);
      expect(kept[0]).to.deep.equal(content(10_000).subarray(6144, 8192));
    });

    it('reads into shared memory when asked (a worker thread may then read the chunks where they lie), with the same chunks', async () => {
      const shared: SourceChunk[] = [];
      for await (const chunk of readFileChunks(file('ten-thousand.bin'), { chunkSize: 4096, sharedMemory: true })) {
        expect(chunk.bytes.buffer).to.be.instanceOf(SharedArrayBuffer);
        shared.push({ bytes: chunk.bytes.slice(), offset: chunk.offset });
      }
      expect(shared).to.deep.equal(await readAll(file('ten-thousand.bin'), { chunkSize: 4096 }));
      for await (const chunk of readFileChunks(file('ten-thousand.bin'), { chunkSize: 4096 })) expect(chunk.bytes.buffer).to.be.instanceOf(ArrayBuffer);
    });

    it('closes the file when the consumer stops early', async function () {
      if (!existsSync('/proc/self/fd')) this.skip();
      const before = openDescriptors();
      for await (const chunk of readFileChunks(file('ten-thousand.bin'), { chunkSize: 1000 })) {
        expect(chunk.offset).to.equal(0);
        break;
      }
      expect(openDescriptors()).to.equal(before);
    });

    it('rejects with the abort reason and closes the file when aborted', async function () {
      if (!existsSync('/proc/self/fd')) this.skip();
      const before = openDescriptors();
      const controller = new AbortController();
      const offsets: number[] = [];
      const reading = (async () => {
        for await (const chunk of readFileChunks(file('ten-thousand.bin'), { chunkSize: 1000, signal: controller.signal })) {
          offsets.push(chunk.offset);
          if (offsets.length === 2) controller.abort();
        }
      })();
      const error = await reading.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(DOMException).with.property('name', 'AbortError');
      expect(offsets).to.deep.equal([0, 1000]);
      expect(openDescriptors()).to.equal(before);
    });

    it('refuses a chunk size that is not a positive integer', async () => {
      const error = await readAll(file('empty.bin'), { chunkSize: 0 }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(RangeError).with.property('message', 'chunkSize must be a positive integer, got 0');
    });

    it('reports a missing file as ERR_FILE_NOT_FOUND naming the path', async () => {
      const missing = file('missing.ts');
      const error = await failure(readAll(missing));
      expect(error.toJSON()).to.deep.equal({ code: 'ERR_FILE_NOT_FOUND', message: `no such file: ${missing}`, details: { path: missing, errno: 'ENOENT' } });
      expect((await failure(readAll(join(file('empty.bin'), 'inside.ts')))).code).to.equal('ERR_FILE_NOT_FOUND');
    });

    it('reports a directory as ERR_NOT_A_FILE', async () => {
      const error = await failure(readAll(file('folder')));
      expect([error.code, error.message]).to.deep.equal(['ERR_NOT_A_FILE', `${file('folder')} is a directory`]);
    });

    it('reports a FIFO as ERR_NOT_A_FILE without blocking on it', async function () {
      try {
        execFileSync('mkfifo', [file('fifo')]);
      } catch {
        console.log('      skipped: mkfifo is not available');
        this.skip();
      }
      const error = await failure(readAll(file('fifo')));
      expect([error.code, error.message]).to.deep.equal(['ERR_NOT_A_FILE', `${file('fifo')} is not a regular file`]);
    });

    it('reports a file without read permission as ERR_FILE_UNREADABLE', async function () {
      if (process.getuid?.() === 0) {
        console.log('      skipped: running as root, which reads any file whatever its mode');
        this.skip();
      }
      await writeFile(file('secret.ts'), content(10));
      await chmod(file('secret.ts'), 0o000);
      const error = await failure(readAll(file('secret.ts')));
      expect([error.code, error.message]).to.deep.equal(['ERR_FILE_UNREADABLE', `permission denied reading ${file('secret.ts')}`]);
    });
  });

  describe('readFileChunks past the page cache (O_DIRECT)', () => {
    const CHUNK = 64 * 1024;
    // Not a whole number of chunks, nor of 4 KiB blocks: the last direct read is short.
    const LENGTH = 5 * CHUNK + 1000;

    before(async function () {
      await writeFile(file('direct.bin'), content(LENGTH));
      const refused = directReadsRefused(file('direct.bin'));
      if (refused !== null) {
        console.log(`      skipped: ${refused}`);
        this.skip();
      }
    });

    it('gives the same chunks as reading through the page cache, from a descriptor opened with O_DIRECT, and closes it', async () => {
      const before = openDescriptors();
      for (const sharedMemory of [false, true]) {
        const chunks: SourceChunk[] = [];
        let direct = false;
        for await (const chunk of readFileChunks(file('direct.bin'), { chunkSize: CHUNK, directReads: true, sharedMemory })) {
          direct ||= openDirect(file('direct.bin'));
          expect(chunk.bytes.buffer).to.be.instanceOf(sharedMemory ? SharedArrayBuffer : ArrayBuffer);
          chunks.push({ bytes: chunk.bytes.slice(), offset: chunk.offset });
        }
        expect(direct).to.equal(true);
        expect(chunks.map((chunk) => chunk.bytes.length)).to.deep.equal([CHUNK, CHUNK, CHUNK, CHUNK, CHUNK, 1000]);
        expect(chunks).to.deep.equal(await readAll(file('direct.bin'), { chunkSize: CHUNK, directReads: false }));
      }
      expect(openDescriptors()).to.equal(before);
    });

    it('closes both descriptors when the consumer stops early', async () => {
      const before = openDescriptors();
      for await (const chunk of readFileChunks(file('direct.bin'), { chunkSize: CHUNK, directReads: true })) {
        expect([chunk.offset, openDirect(file('direct.bin'))]).to.deep.equal([0, true]);
        break;
      }
      expect(openDescriptors()).to.equal(before);
    });

    it('reads on through the page cache from an unaligned end when the file grows while read', async () => {
      await writeFile(file('growing.bin'), content(2 * CHUNK + 100));
      const chunks: SourceChunk[] = [];
      for await (const chunk of readFileChunks(file('growing.bin'), { chunkSize: CHUNK, directReads: true })) {
        chunks.push({ bytes: chunk.bytes.slice(), offset: chunk.offset });
        if (chunks.length === 1) await appendFile(file('growing.bin'), content(LENGTH).subarray(2 * CHUNK + 100));
      }
      expect(joined(chunks)).to.deep.equal(content(LENGTH));
    });

    it('is the default for a file of at least half the machine\'s memory, not for a smaller one', async () => {
      // A sparse file: it takes no room on the disk, and only its first chunk is read.
      await writeFile(file('half-the-memory.bin'), new Uint8Array(0));
      await truncate(file('half-the-memory.bin'), Math.ceil(totalmem() / 2));
      for await (const chunk of readFileChunks(file('half-the-memory.bin'))) {
        expect([chunk.bytes.length, openDirect(file('half-the-memory.bin'))]).to.deep.equal([4 * 1024 * 1024, true]);
        break;
      }
      await rm(file('half-the-memory.bin'));
      for await (const chunk of readFileChunks(file('direct.bin'))) {
        expect([chunk.bytes.length, openDirect(file('direct.bin'))]).to.deep.equal([LENGTH, false]);
      }
    });
  });

  describe('readFileHead', () => {
    it('gives the first bytes of a file, or all of a shorter one', async () => {
      expect(await readFileHead(file('ten-thousand.bin'), 4096)).to.deep.equal(content(4096));
      expect(await readFileHead(file('ten-thousand.bin'), 1024 * 1024)).to.deep.equal(content(10_000));
      expect(await readFileHead(file('empty.bin'), 4096)).to.deep.equal(new Uint8Array(0));
    });

    it('closes the file it read', async function () {
      if (!existsSync('/proc/self/fd')) this.skip();
      const before = openDescriptors();
      await readFileHead(file('ten-thousand.bin'), 100);
      expect(openDescriptors()).to.equal(before);
    });

    it('reports missing files and directories with the same errors as reading', async () => {
      const missing = file('missing.ts');
      expect((await failure(readFileHead(missing, 100))).toJSON()).to.deep.equal((await failure(readAll(missing))).toJSON());
      expect((await failure(readFileHead(file('folder'), 100))).toJSON()).to.deep.equal((await failure(readAll(file('folder')))).toJSON());
    });
  });

  describe('fileSize', () => {
    it('gives the size of a file in bytes', async () => {
      expect([await fileSize(file('ten-thousand.bin')), await fileSize(file('empty.bin'))]).to.deep.equal([10_000, 0]);
    });

    it('reports missing files and directories with the same codes as reading', async () => {
      expect((await failure(fileSize(file('missing.ts')))).code).to.equal('ERR_FILE_NOT_FOUND');
      expect((await failure(fileSize(file('folder')))).code).to.equal('ERR_NOT_A_FILE');
    });
  });
});
