/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-assignment -- JSON answers are read loosely: the assertions check their values */
import { expect } from 'chai';
import { relayForSuite, TEST_KEY } from './relay-test-server.js';

describe('relay: generated CRUD endpoints', function () {
  this.timeout(20_000);
  const relay = relayForSuite();

  before(async () => {
    // Five platforms: names and descriptions chosen so that two-column sorts differ from one-column ones.
    const platforms = [
      { id: 'p1', name: 'Reaper', description: 'b', createdAt: '2026-01-01T00:00:00.000Z' },
      { id: 'p2', name: 'Heron', description: 'a', createdAt: '2026-01-02T00:00:00.000Z' },
      { id: 'p3', name: 'Reaper', description: 'a', createdAt: '2026-01-03T00:00:00.000Z' },
      { id: 'p4', name: "O'Brien%_", description: 'c', createdAt: '2026-01-04T00:00:00.000Z' },
      { id: 'p5', name: 'Scan Eagle', description: 'a', createdAt: '2026-01-05T00:00:00.000Z' },
    ];
    for (const platform of platforms) expect((await relay.client.request('POST', '/platforms', platform)).status).to.equal(201);
  });


  const ids = (body: Array<{ id: string | number }>): Array<string | number> => body.map((row) => row.id);

  it('pages with _limit and _page and gives the total in X-Total-Count', async () => {
    const page = await relay.client.get('/platforms?_limit=2&_page=2');
    expect(page.status).to.equal(200);
    expect(ids(page.body)).to.deep.equal(['p3', 'p4']);
    expect(page.headers.get('x-total-count')).to.equal('5');
    expect(ids((await relay.client.get('/platforms?_limit=2&_page=3')).body)).to.deep.equal(['p5']);
  });

  it('sorts on two columns with an order for each', async () => {
    const sorted = await relay.client.get('/platforms?_sort=name,description&_order=desc,asc');
    expect(ids(sorted.body)).to.deep.equal(['p5', 'p3', 'p1', 'p4', 'p2']);
    expect(ids((await relay.client.get('/platforms?_sort=description,name')).body)).to.deep.equal(['p2', 'p3', 'p5', 'p1', 'p4']);
  });

  it('filters by equality (repeated: any of), _gte, _lte, _ne and _like, with the total of the filtered rows', async () => {
    const reaper = await relay.client.get('/platforms?name=Reaper');
    expect(ids(reaper.body)).to.deep.equal(['p1', 'p3']);
    expect(reaper.headers.get('x-total-count')).to.equal('2');
    expect(ids((await relay.client.get('/platforms?id=p2&id=p5')).body)).to.deep.equal(['p2', 'p5']);
    expect(ids((await relay.client.get('/platforms?createdAt_gte=2026-01-03T00:00:00.000Z')).body)).to.deep.equal(['p3', 'p4', 'p5']);
    expect(ids((await relay.client.get('/platforms?createdAt_lte=2026-01-02T00:00:00.000Z')).body)).to.deep.equal(['p1', 'p2']);
    expect(ids((await relay.client.get('/platforms?description_ne=a')).body)).to.deep.equal(['p1', 'p4']);
    expect(ids((await relay.client.get('/platforms?name_like=eAg')).body)).to.deep.equal(['p5']);
    // % and _ in a _like value are the characters themselves, not wildcards.
    expect(ids((await relay.client.get(`/platforms?name_like=${encodeURIComponent('%_')}`)).body)).to.deep.equal(['p4']);
    const combined = await relay.client.get('/platforms?description=a&name_ne=Heron&_limit=1');
    expect(ids(combined.body)).to.deep.equal(['p3']);
    expect(combined.headers.get('x-total-count')).to.equal('2');
  });

  it('matches an SQL injection attempt in a filter value literally', async () => {
    for (const attack of ["Reaper' OR '1'='1", "x'; DROP TABLE relay_platforms; --", "' UNION SELECT * FROM relay_channels --"]) {
      const response = await relay.client.get(`/platforms?name=${encodeURIComponent(attack)}`);
      expect(response.status).to.equal(200);
      expect(response.body).to.deep.equal([]);
      expect(response.headers.get('x-total-count')).to.equal('0');
    }
    expect(ids((await relay.client.get(`/platforms?name=${encodeURIComponent("O'Brien%_")}`)).body)).to.deep.equal(['p4']);
    expect((await relay.client.get('/platforms')).headers.get('x-total-count')).to.equal('5');
  });

  it('answers 400 naming the parameter for an unknown field, a sort on no field, a bad order or a limit out of range', async () => {
    const cases: Array<[string, string]> = [
      ['/platforms?colour=red', 'colour'],
      ['/platforms?_sort=name;DROP', '_sort'],
      ['/platforms?_sort=name&_order=up', '_order'],
      ['/platforms?_limit=1001', '_limit'],
      ['/platforms?_limit=0', '_limit'],
      ['/platforms?_page=0', '_page'],
      ['/serverStatus?id=abc', 'id'],
      ['/logMessages?id_gte=1.5', 'id_gte'],
      ['/platforms?channels_ne=c-p1', 'channels_ne'],
    ];
    for (const [path, field] of cases) {
      const response = await relay.client.get(path);
      expect(response.status, path).to.equal(400);
      expect(response.body.error.code).to.equal('ERR_INVALID_FIELD');
      expect(response.body.error.details.fields.map((f: { field: string }) => f.field), path).to.include(field);
    }
  });

  it('creates (201 with the row), reads, replaces (200) and deletes (204) a platform; an unknown id is 404', async () => {
    const created = await relay.client.request('POST', '/platforms', { name: 'Global Hawk', description: 'HALE' });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ name: 'Global Hawk', description: 'HALE' });
    expect(created.body.id).to.be.a('string').and.not.empty;
    expect(Date.parse(created.body.createdAt)).to.be.closeTo(Date.now(), 10_000);
    const id = created.body.id as string;
    expect((await relay.client.get(`/platforms/${id}`)).body).to.deep.equal(created.body);
    const replaced = await relay.client.request('PUT', `/platforms/${id}`, { name: 'Global Hawk 2' });
    expect(replaced.status).to.equal(200);
    expect(replaced.body).to.include({ id, name: 'Global Hawk 2', description: '', createdAt: created.body.createdAt });
    expect((await relay.client.request('DELETE', `/platforms/${id}`)).status).to.equal(204);
    const gone = await relay.client.get(`/platforms/${id}`);
    expect(gone.status).to.equal(404);
    expect(gone.body.error.code).to.equal('ERR_PLATFORM_NOT_FOUND');
    expect((await relay.client.request('PUT', '/platforms/nope', { name: 'x' })).status).to.equal(404);
    expect((await relay.client.request('DELETE', '/platforms/nope')).status).to.equal(404);
  });

  it('answers 400 naming the field for a bad body, a duplicate id or a channel id of another platform', async () => {
    const bad = await relay.client.request('POST', '/platforms', { name: 42, extra: true });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.details.fields.map((f: { field: string }) => f.field)).to.have.members(['name', 'extra']);
    const duplicate = await relay.client.request('POST', '/platforms', { id: 'p1', name: 'again' });
    expect(duplicate.status).to.equal(400);
    expect(duplicate.body.error.details.fields[0].field).to.equal('id');
    await relay.client.request('PUT', '/platforms/p1', { name: 'Reaper', description: 'b', channels: [{ channelId: 'c-p1', name: 'EO', input: 'udp://239.1.2.3:5000' }] });
    const stolen = await relay.client.request('PUT', '/platforms/p2', { name: 'Heron', channels: [{ channelId: 'c-p1', name: 'IR', input: 'udp://239.1.2.4:5000' }] });
    expect(stolen.status).to.equal(400);
    expect(stolen.body.error.details.fields[0].field).to.equal('channels[0].channelId');
    const malformed = await relay.client.request('POST', '/platforms', '{"name":');
    expect(malformed.status).to.equal(400);
    expect(malformed.body.error.code).to.equal('ERR_MALFORMED_JSON');
  });

  it('filters platforms by a channel id (channels=ID)', async () => {
    expect(ids((await relay.client.get('/platforms?channels=c-p1')).body)).to.deep.equal(['p1']);
  });

  it('gives log messages and server status records the same semantics, with numeric ids', async () => {
    const created = await relay.client.request('POST', '/logMessages', { time: '2026-02-01T00:00:00.000Z', type: 'error', message: 'made by a test' });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ type: 'error', message: 'made by a test' });
    const id = created.body.id as number;
    expect(id).to.be.a('number');
    const replaced = await relay.client.request('PUT', `/logMessages/${id}`, { time: '2026-02-01T00:00:00.000Z', type: 'stopped', message: 'changed' });
    expect(replaced.status).to.equal(200);
    expect(replaced.body).to.deep.equal({ id, time: '2026-02-01T00:00:00.000Z', type: 'stopped', message: 'changed' });
    expect((await relay.client.get(`/logMessages?message=changed`)).body).to.deep.equal([replaced.body]);
    expect((await relay.client.request('DELETE', `/logMessages/${id}`)).status).to.equal(204);
    expect((await relay.client.get(`/logMessages/${id}`)).status).to.equal(404);
    expect((await relay.client.request('DELETE', '/logMessages/abc')).status).to.equal(400);
    expect((await relay.client.request('POST', '/logMessages', { time: 'yesterday', type: 'gossip', message: 'x' })).body.error.details.fields.map((f: { field: string }) => f.field)).to.have.members(['time', 'type']);
    const status = await relay.client.get('/serverStatus?state=running');
    expect(status.body).to.have.length(1);
    expect(status.body[0]).to.include({ state: 'running', errorMessage: '' });
    expect((await relay.client.request('POST', '/serverStatus', { startedAt: '2026-02-01T00:00:00.000Z', state: 'error', errorMessage: 'x' })).status).to.equal(201);
    expect((await relay.client.get('/serverStatus?_sort=id&_order=desc&_limit=1')).body[0]).to.include({ state: 'error' });
  });

  it('needs the API key for every change and answers reads without it', async () => {
    const missing = await relay.client.request('POST', '/platforms', { name: 'x' }, null);
    expect(missing.status).to.equal(401);
    expect(missing.body.error.code).to.equal('ERR_API_KEY_MISSING');
    expect((await relay.client.request('DELETE', '/platforms/p1', undefined, 'wrong-key-0123456789')).body.error.code).to.equal('ERR_API_KEY_WRONG');
    expect((await relay.client.request('POST', '/channels/command', { channelId: 'c-p1', command: 'start' }, null)).status).to.equal(401);
    expect((await relay.client.get('/platforms/p1')).status).to.equal(200);
    expect(TEST_KEY).to.have.length.above(16);
  });
});
