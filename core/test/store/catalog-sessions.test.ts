import { expect } from 'chai';
import { deleteSession, getSession, listSessions, putSession, type SessionRow } from '../../src/store/catalog-sessions.js';
import { useCatalogInMemory } from './catalog-in-memory.js';

describe('catalog sessions', () => {
  const catalog = useCatalogInMemory();
  const fileSession: SessionRow = { id: 's1', kind: 'file', source: '/rec/a.ts', status: 'active', createdMs: 1, updatedMs: 1, state: { stage: 'analyze' } };

  it('stores a session and replaces it, keeping its creation time', () => {
    putSession(catalog.db, fileSession);
    expect(getSession(catalog.db, 's1')).to.deep.equal(fileSession);
    putSession(catalog.db, { ...fileSession, status: 'stopped', createdMs: 99, updatedMs: 5, state: { stage: 'report' } });
    expect(getSession(catalog.db, 's1')).to.deep.equal({ ...fileSession, status: 'stopped', updatedMs: 5, state: { stage: 'report' } });
  });

  it('lists sessions most recently updated first, and deletes one', () => {
    putSession(catalog.db, fileSession);
    putSession(catalog.db, { ...fileSession, id: 's2', kind: 'live', source: 'udp://239.1.1.1:5000', updatedMs: 2 });
    expect(listSessions(catalog.db).map((session) => session.id)).to.deep.equal(['s2', 's1']);
    expect(deleteSession(catalog.db, 's2')).to.be.true;
    expect(deleteSession(catalog.db, 's2')).to.be.false;
    expect(getSession(catalog.db, 's2')).to.be.undefined;
  });
});
