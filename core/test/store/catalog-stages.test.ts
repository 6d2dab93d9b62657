import { expect } from 'chai';
import { cachedStages, deleteStagePayloads, getStagePayload, putStagePayload } from '../../src/store/catalog-stages.js';
import { useCatalogInMemory } from './catalog-in-memory.js';

const HASH = 'd'.repeat(64);

describe('catalog stage payloads', () => {
  const catalog = useCatalogInMemory();

  it('gives a payload back only under the compatibility key it was stored with', () => {
    putStagePayload(catalog.db, { hash: HASH, stage: 'analyze', compatibilityKey: 'k1', payload: { pids: [256, 258] }, createdMs: 10 });
    expect(getStagePayload(catalog.db, HASH, 'analyze', 'k1')).to.deep.equal({ hash: HASH, stage: 'analyze', compatibilityKey: 'k1', payload: { pids: [256, 258] }, createdMs: 10 });
    expect(getStagePayload(catalog.db, HASH, 'analyze', 'k2')).to.be.undefined;
    expect(getStagePayload(catalog.db, HASH, 'process', 'k1')).to.be.undefined;
  });

  it('replaces the payload of the same hash, stage and key', () => {
    putStagePayload(catalog.db, { hash: HASH, stage: 'process', compatibilityKey: 'k1', payload: 1, createdMs: 10 });
    putStagePayload(catalog.db, { hash: HASH, stage: 'process', compatibilityKey: 'k1', payload: 2, createdMs: 20 });
    expect(getStagePayload(catalog.db, HASH, 'process', 'k1')).to.include({ payload: 2, createdMs: 20 });
  });

  it('lists the stages cached under a key in workflow order, and deletes all of a hash', () => {
    for (const stage of ['process', 'analyze', 'ingest'] as const) putStagePayload(catalog.db, { hash: HASH, stage, compatibilityKey: 'k1', payload: {}, createdMs: 1 });
    putStagePayload(catalog.db, { hash: HASH, stage: 'analyze', compatibilityKey: 'k0', payload: {}, createdMs: 1 });
    expect(cachedStages(catalog.db, HASH, 'k1')).to.deep.equal(['analyze', 'ingest', 'process']);
    expect(cachedStages(catalog.db, HASH, 'k0')).to.deep.equal(['analyze']);
    expect(deleteStagePayloads(catalog.db, HASH)).to.equal(4);
    expect(cachedStages(catalog.db, HASH, 'k1')).to.deep.equal([]);
  });
});
