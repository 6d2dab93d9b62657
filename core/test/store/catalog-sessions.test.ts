import { expect } from 'chai';
import { deleteSession, getSession, listSessions, putSession, type SessionFilter, type SessionRow } from '../../src/store/catalog-sessions.js';
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

  it('lists only the sessions of a kind and statuses, keeping the order', () => {
    putSession(catalog.db, fileSession);
    putSession(catalog.db, { ...fileSession, id: 's2', status: 'stopped', updatedMs: 2 });
    putSession(catalog.db, { ...fileSession, id: 's3', updatedMs: 3 });
    putSession(catalog.db, { ...fileSession, id: 's4', kind: 'live', source: 'udp://239.1.1.1:5000', status: 'receiving', updatedMs: 4 });
    const ids = (filter: SessionFilter): string[] => listSessions(catalog.db, filter).map((session) => session.id);
    expect(ids({ kind: 'file' })).to.deep.equal(['s3', 's2', 's1']);
    expect(ids({ kind: 'file', statuses: ['active'] })).to.deep.equal(['s3', 's1']);
    expect(ids({ statuses: ['receiving', 'stopped'] })).to.deep.equal(['s4', 's2']);
    expect(ids({ kind: 'live', statuses: ['active'] })).to.deep.equal([]);
    expect(ids({ statuses: [] })).to.deep.equal([]);
    expect(ids({})).to.deep.equal(['s4', 's3', 's2', 's1']);
  });
});
