import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hashFile } from '../../src/workflow/file-hash.js';
import { hashFileInWorker } from '../../src/workflow/file-hash-worker.js';
import { useTemporaryFolder } from '../store/temporary-folder.js';

describe('hashFileInWorker', () => {
  const folder = useTemporaryFolder('klvscope-hash-worker-');

  it('gives the digest hashFile gives, for content of several read chunks ending inside one, and for an empty file', async () => {
    const path = join(folder.path, 'big.bin');
    const content = Buffer.alloc(2.5 * 1024 * 1024 + 7);
    for (let i = 0; i < content.length; i += 1) content[i] = (i * 31) & 0xff;
    await writeFile(path, content);
    expect(await hashFileInWorker(path)).to.equal(await hashFile(path));
    const empty = join(folder.path, 'empty.bin');
    await writeFile(empty, '');
    expect(await hashFileInWorker(empty)).to.equal('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('stops with an AbortError when its signal is aborted before or during the hash', async () => {
    const path = join(folder.path, 'abort.bin');
    await writeFile(path, Buffer.alloc(64 * 1024 * 1024));
    expect(await hashFileInWorker(path, AbortSignal.abort()).catch((e: unknown) => e)).to.have.property('name', 'AbortError');
    const controller = new AbortController();
    const hashing = hashFileInWorker(path, controller.signal);
    controller.abort();
    expect(await hashing.catch((e: unknown) => e)).to.have.property('name', 'AbortError');
  });

  it("rejects a missing file with the file system's ENOENT", async () => {
    expect(await hashFileInWorker(join(folder.path, 'absent.bin')).catch((e: unknown) => e)).to.have.property('code', 'ENOENT');
  });
});
