import { expect } from 'chai';
import { findArchiveEntryByPath, getArchiveEntry, listArchiveEntries } from '../../src/store/catalog-archive.js';
import { putFile, putFileRecord } from '../../src/store/catalog-files.js';
import { putStagePayload } from '../../src/store/catalog-stages.js';
import { useCatalogInMemory } from './catalog-in-memory.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);

describe('catalog archive', () => {
  const catalog = useCatalogInMemory();

  beforeEach(() => {
    putFile(catalog.db, { hash: A, size: 1880, firstPath: '/rec/a.ts', firstSeenMs: 1 });
    putFile(catalog.db, { hash: B, size: 3760, firstPath: '/rec/b.ts', firstSeenMs: 2 });
    putFile(catalog.db, { hash: C, size: 188, firstPath: '/rec/never-analysed.ts', firstSeenMs: 3 });
    putFileRecord(catalog.db, { path: '/rec/a-copy.ts', size: 1880, mtimeMs: 7, hash: A, checkedMs: 8 });
    putStagePayload(catalog.db, { hash: A, stage: 'ingest', compatibilityKey: 'k1', payload: {}, createdMs: 30 });
    putStagePayload(catalog.db, { hash: A, stage: 'analyze', compatibilityKey: 'k0', payload: {}, createdMs: 10 });
    putStagePayload(catalog.db, { hash: B, stage: 'analyze', compatibilityKey: 'k1', payload: {}, createdMs: 20 });
  });

  it('lists the files that have cached stages, most recently updated first', () => {
    expect(listArchiveEntries(catalog.db)).to.deep.equal([
      { hash: A, size: 1880, firstPath: '/rec/a.ts', stages: ['analyze', 'ingest'], updatedMs: 30 },
      { hash: B, size: 3760, firstPath: '/rec/b.ts', stages: ['analyze'], updatedMs: 20 },
    ]);
    expect(getArchiveEntry(catalog.db, C)).to.be.undefined;
  });

  it('finds an entry by any path recorded for its content', () => {
    expect(findArchiveEntryByPath(catalog.db, '/rec/a-copy.ts')?.hash).to.equal(A);
    expect(findArchiveEntryByPath(catalog.db, '/rec/unknown.ts')).to.be.undefined;
  });
});
