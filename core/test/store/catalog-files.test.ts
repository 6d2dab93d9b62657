import { expect } from 'chai';
import { getFile, getFileRecord, putFile, putFileRecord } from '../../src/store/catalog-files.js';
import { useCatalogInMemory } from './catalog-in-memory.js';

const HASH = 'b'.repeat(64);

describe('catalog files', () => {
  const catalog = useCatalogInMemory();

  it('keeps the first path at which a content hash was seen', () => {
    putFile(catalog.db, { hash: HASH, size: 188, firstPath: '/rec/first.ts', firstSeenMs: 1 });
    putFile(catalog.db, { hash: HASH, size: 188, firstPath: '/rec/copy.ts', firstSeenMs: 2 });
    expect(getFile(catalog.db, HASH)).to.deep.equal({ hash: HASH, size: 188, firstPath: '/rec/first.ts', firstSeenMs: 1 });
    expect(getFile(catalog.db, 'c'.repeat(64))).to.be.undefined;
  });

  it('replaces a path\'s record, keeping the fraction of its mtime', () => {
    putFileRecord(catalog.db, { path: '/rec/a.ts', size: 188, mtimeMs: 1700000000123.25, hash: HASH, checkedMs: 5 });
    expect(getFileRecord(catalog.db, '/rec/a.ts')).to.deep.equal({ path: '/rec/a.ts', size: 188, mtimeMs: 1700000000123.25, hash: HASH, checkedMs: 5 });
    putFileRecord(catalog.db, { path: '/rec/a.ts', size: 376, mtimeMs: 1700000000999, hash: 'c'.repeat(64), checkedMs: 6 });
    expect(getFileRecord(catalog.db, '/rec/a.ts')).to.deep.equal({ path: '/rec/a.ts', size: 376, mtimeMs: 1700000000999, hash: 'c'.repeat(64), checkedMs: 6 });
    expect(getFileRecord(catalog.db, '/rec/b.ts')).to.be.undefined;
  });
});
