import { expect } from 'chai';
import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getFile, getFileRecord } from '../../src/store/catalog-files.js';
import { hashFile, type FileHasher } from '../../src/workflow/file-hash.js';
import { identifyFile } from '../../src/workflow/file-identity.js';
import { useCatalogInMemory } from '../store/catalog-in-memory.js';
import { useTemporaryFolder } from '../store/temporary-folder.js';

/** A whole-second mtime, so setting it again restores exactly the same mtimeMs. */
const MTIME_S = 1_700_000_000;

describe('identifyFile', () => {
  const folder = useTemporaryFolder('klvscope-identity-');
  const catalog = useCatalogInMemory();
  let hashedPaths: string[];
  const countingHasher: FileHasher = (path, options) => {
    hashedPaths.push(path);
    return hashFile(path, options);
  };
  beforeEach(() => (hashedPaths = []));

  async function writeRecording(name: string, content: string, mtimeS = MTIME_S): Promise<string> {
    const path = join(folder.path, name);
    await writeFile(path, content);
    await utimes(path, mtimeS, mtimeS);
    return path;
  }

  it('hashes a new file and records the file and its path', async () => {
    const path = await writeRecording('a.ts', 'first content');
    const identity = await identifyFile(catalog.db, path, { hasher: countingHasher, nowMs: 42 });
    const hash = await hashFile(path);
    expect(identity).to.deep.equal({ path, hash, size: 13, mtimeMs: MTIME_S * 1000, hashed: true });
    expect(hashedPaths).to.deep.equal([path]);
    expect(getFile(catalog.db, hash)).to.deep.equal({ hash, size: 13, firstPath: path, firstSeenMs: 42 });
    expect(getFileRecord(catalog.db, path)).to.deep.equal({ path, size: 13, mtimeMs: MTIME_S * 1000, hash, checkedMs: 42 });
  });

  it('does not read an unchanged file again: same size and mtime keep the stored hash', async () => {
    const path = await writeRecording('a.ts', 'first content');
    const first = await identifyFile(catalog.db, path, { hasher: countingHasher });
    // New bytes, same size, mtime put back: only a re-read could notice.
    await writeRecording('a.ts', 'other content');
    const second = await identifyFile(catalog.db, path, { hasher: countingHasher });
    expect(second).to.deep.equal({ ...first, hashed: false });
    expect(hashedPaths).to.have.length(1);
  });

  it('hashes again when the size or the mtime changed, and records the new hash', async () => {
    const path = await writeRecording('a.ts', 'first content');
    const first = await identifyFile(catalog.db, path, { hasher: countingHasher });
    await writeRecording('a.ts', 'other content', MTIME_S + 1);
    const touched = await identifyFile(catalog.db, path, { hasher: countingHasher });
    expect(touched).to.include({ hashed: true, hash: await hashFile(path) });
    expect(touched.hash).to.not.equal(first.hash);
    await writeRecording('a.ts', 'longer content now', MTIME_S + 1);
    const grown = await identifyFile(catalog.db, path, { hasher: countingHasher });
    expect(grown).to.include({ hashed: true, size: 18 });
    expect(getFileRecord(catalog.db, path)?.hash).to.equal(grown.hash);
    expect(hashedPaths).to.have.length(3);
  });

  it('gives a copy at another path the same hash, keeping the first path of the content', async () => {
    const original = await writeRecording('a.ts', 'same bytes');
    const copy = await writeRecording('copy.ts', 'same bytes');
    const a = await identifyFile(catalog.db, original);
    const b = await identifyFile(catalog.db, copy);
    expect(b.hash).to.equal(a.hash);
    expect(getFile(catalog.db, a.hash)?.firstPath).to.equal(original);
    expect(getFileRecord(catalog.db, copy)?.hash).to.equal(a.hash);
  });

  it('passes progress and the abort signal through to the hasher', async () => {
    const path = await writeRecording('a.ts', 'x'.repeat(1000));
    const progress: number[] = [];
    await identifyFile(catalog.db, path, { onProgress: (done) => progress.push(done) });
    expect(progress).to.deep.equal([1000]);
    const aborted = await identifyFile(catalog.db, await writeRecording('b.ts', 'y'), { signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect(aborted).to.have.property('name', 'AbortError');
    expect(getFileRecord(catalog.db, join(folder.path, 'b.ts'))).to.be.undefined;
  });

  it('with deferNewContent, leaves the hash pending for content of a size no known file has, and hashes first otherwise', async () => {
    const known = await writeRecording('known.ts', 'twelve bytes');
    await identifyFile(catalog.db, known, { hasher: countingHasher });
    const sameSize = await writeRecording('same-size.ts', 'other twelve');
    const newSize = await writeRecording('new-size.ts', 'a size never seen');
    const pending = await identifyFile(catalog.db, newSize, { hasher: countingHasher, deferNewContent: true });
    expect(pending).to.deep.equal({ path: newSize, hash: '', size: 17, mtimeMs: MTIME_S * 1000, hashed: false, hashPending: true });
    expect(getFileRecord(catalog.db, newSize), 'nothing recorded while pending').to.be.undefined;
    // A file of a known size may be known content: hashed before the stages, as without the option.
    const hashed = await identifyFile(catalog.db, sameSize, { hasher: countingHasher, deferNewContent: true });
    expect(hashed).to.include({ hashed: true, hash: await hashFile(sameSize) });
    expect(hashed).to.not.have.property('hashPending');
    // An unchanged record is used as ever.
    expect(await identifyFile(catalog.db, known, { hasher: countingHasher, deferNewContent: true })).to.include({ hashed: false, hash: await hashFile(known) });
    expect(hashedPaths).to.deep.equal([known, sameSize]);
  });
});
