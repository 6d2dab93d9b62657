import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hashFile } from '../../src/workflow/file-hash.js';
import { useTemporaryFolder } from '../store/temporary-folder.js';

describe('hashFile', () => {
  const folder = useTemporaryFolder('klvscope-hash-');

  it('gives the SHA-256 of the content in lower-case hex', async () => {
    const path = join(folder.path, 'abc.bin');
    await writeFile(path, 'abc');
    // FIPS 180-2 appendix B.1: SHA-256("abc").
    expect(await hashFile(path)).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes a file of several read chunks and reports progress up to its size', async () => {
    const path = join(folder.path, 'big.bin');
    const content = Buffer.alloc(2.5 * 1024 * 1024);
    for (let i = 0; i < content.length; i += 1) content[i] = (i * 31) & 0xff;
    await writeFile(path, content);
    const progress: Array<[number, number]> = [];
    const hash = await hashFile(path, { onProgress: (done, total) => progress.push([done, total]) });
    expect(hash).to.equal(createHash('sha256').update(content).digest('hex'));
    expect(progress).to.deep.equal([
      [1048576, content.length],
      [2097152, content.length],
      [content.length, content.length],
    ]);
  });

  it('hashes an empty file', async () => {
    const path = join(folder.path, 'empty.bin');
    await writeFile(path, '');
    expect(await hashFile(path)).to.equal('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('stops with an AbortError when its signal is aborted before or during the read', async () => {
    const path = join(folder.path, 'abort.bin');
    await writeFile(path, Buffer.alloc(3 * 1024 * 1024));
    const before = await hashFile(path, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(before).to.have.property('name', 'AbortError');
    const controller = new AbortController();
    let chunks = 0;
    const during = await hashFile(path, { signal: controller.signal, onProgress: () => (chunks += 1) === 1 && controller.abort() }).catch((e: unknown) => e);
    expect(during).to.have.property('name', 'AbortError');
    expect(chunks).to.equal(1);
  });

  it('rejects a missing file with the file system\'s ENOENT', async () => {
    expect(await hashFile(join(folder.path, 'absent.bin')).catch((e: unknown) => e)).to.have.property('code', 'ENOENT');
  });
});
