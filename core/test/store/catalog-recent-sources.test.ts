import { expect } from 'chai';
import { listRecentSources, removeRecentSource, touchRecentSource } from '../../src/store/catalog-recent-sources.js';
import { useCatalogInMemory } from './catalog-in-memory.js';

describe('catalog recent sources', () => {
  const catalog = useCatalogInMemory();

  it('keeps one entry per kind and source, moved forward by each use', () => {
    const first = touchRecentSource(catalog.db, 'file', '/rec/a.ts', 10);
    touchRecentSource(catalog.db, 'udp', 'udp://239.1.1.1:5000', 20);
    const again = touchRecentSource(catalog.db, 'file', '/rec/a.ts', 30);
    expect(again).to.deep.equal({ id: first.id, source: '/rec/a.ts', kind: 'file', lastUsedMs: 30 });
    expect(touchRecentSource(catalog.db, 'file', '/rec/a.ts', 5).lastUsedMs).to.equal(30); // an older use does not move it back
    expect(listRecentSources(catalog.db).map((entry) => entry.source)).to.deep.equal(['/rec/a.ts', 'udp://239.1.1.1:5000']);
    expect(listRecentSources(catalog.db, 1)).to.have.length(1);
  });

  it('removes an entry by id and never reuses the id', () => {
    const entry = touchRecentSource(catalog.db, 'serial', '/dev/ttyUSB0', 1);
    expect(removeRecentSource(catalog.db, entry.id)).to.be.true;
    expect(removeRecentSource(catalog.db, entry.id)).to.be.false;
    expect(touchRecentSource(catalog.db, 'serial', '/dev/ttyUSB0', 2).id).to.be.greaterThan(entry.id);
  });
});
