/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-explicit-any -- JSON answers are read loosely: the assertions check their values */
import { expect } from 'chai';
import { makeDataDir, relayForSuite, removeDataDir, startTestRelay } from './relay-test-server.js';

const ids = (body: Array<{ id: string | number }>): Array<string | number> => body.map((row) => row.id);
const fieldsOf = (body: any): string[] => body.error.details.fields.map((f: { field: string }) => f.field);

describe('relay: collections keep json-server semantics', function () {
  this.timeout(20_000);
  const relay = relayForSuite();

  it('lists rows in insertion order, and breaks sort ties by it, whatever the ids', async () => {
    for (const id of ['zulu', 'alpha', 'mike']) expect((await relay.client.request('POST', '/platforms', { id, name: 'Same' })).status).to.equal(201);
    expect(ids((await relay.client.get('/platforms')).body)).to.deep.equal(['zulu', 'alpha', 'mike']);
    expect(ids((await relay.client.get('/platforms?_sort=name')).body)).to.deep.equal(['zulu', 'alpha', 'mike']);
    const messages = [];
    for (const id of [900, 100, 500]) messages.push((await relay.client.request('POST', '/logMessages', { id, time: '2026-03-01T00:00:00.000Z', type: 'server', message: 'tie' })).body.id);
    expect(messages).to.deep.equal([900, 100, 500]);
    expect(ids((await relay.client.get('/logMessages?message=tie')).body)).to.deep.equal([900, 100, 500]);
    expect(ids((await relay.client.get('/logMessages?message=tie&_sort=time')).body)).to.deep.equal([900, 100, 500]);
  });

  it('takes _order in any case', async () => {
    const answer = await relay.client.get('/platforms?_sort=id&_order=DESC');
    expect(answer.status).to.equal(200);
    expect(ids(answer.body)).to.deep.equal(['zulu', 'mike', 'alpha']);
    expect(ids((await relay.client.get('/platforms?_sort=id&_order=Asc')).body)).to.deep.equal(['alpha', 'mike', 'zulu']);
  });

  it('merges a PATCH into the row as json-server does, and validates the result', async () => {
    const patched = await relay.client.request('PATCH', '/platforms/alpha', { description: 'patched' });
    expect(patched.status).to.equal(200);
    expect(patched.body).to.include({ id: 'alpha', name: 'Same', description: 'patched' });
    const message = (await relay.client.request('PATCH', '/logMessages/100', { message: 'merged' })).body;
    expect(message).to.deep.equal({ id: 100, time: '2026-03-01T00:00:00.000Z', type: 'server', message: 'merged' });
    const refused = await relay.client.request('PATCH', '/logMessages/100', { type: 'gossip' });
    expect(refused.status).to.equal(400);
    expect(fieldsOf(refused.body)).to.deep.equal(['type']);
    expect((await relay.client.request('PATCH', '/serverStatus/987654', { state: 'running' })).status).to.equal(404);
  });

  it('means all of them for a repeated FIELD_gte (AND, as documented)', async () => {
    expect(ids((await relay.client.get('/logMessages?message=tie&id_gte=200&id_gte=600')).body)).to.deep.equal([900]);
  });

  it('refuses a string with a lone surrogate (400 naming the field) instead of storing replacement characters', async () => {
    const refused = await relay.client.request('POST', '/logMessages', '{"time":"2026-03-01T00:00:00Z","type":"server","message":"half \\ud800 a pair"}');
    expect(refused.status).to.equal(400);
    expect(refused.body.error.code).to.equal('ERR_INVALID_FIELD');
    expect(fieldsOf(refused.body)).to.deep.equal(['message']);
    const pair = await relay.client.request('POST', '/logMessages', '{"time":"2026-03-01T00:00:00Z","type":"server","message":"whole \\ud83d\\ude81"}');
    expect(pair.body.message).to.equal('whole \u{1F681}');
  });

  it('declares X-Total-Count on every collection GET of its OpenAPI document', async () => {
    const document = (await relay.client.get('/openapi.json')).body;
    for (const path of ['/platforms', '/serverStatus', '/logMessages']) {
      expect(document.paths[path].get.responses['200'].headers['X-Total-Count'].schema, path).to.deep.equal({ type: 'integer', minimum: 0 });
    }
  });

  it('refuses an upload that names one platform twice, and writes nothing', async () => {
    const upload = await relay.client.request('POST', '/platforms/upload', [
      { id: 'twice', name: 'First' },
      { id: 'twice', name: 'Second' },
    ]);
    expect(upload.status).to.equal(400);
    expect(fieldsOf(upload.body)).to.deep.equal(['[1].id']);
    expect((await relay.client.get('/platforms/twice')).status).to.equal(404);
  });
});

describe('relay: record ids', function () {
  this.timeout(20_000);
  const relay = relayForSuite();
  const MAX_ID = 999_999_999_999_999;

  it('takes one id range in bodies and paths: the largest id given is read, changed and deleted', async () => {
    const created = await relay.client.request('POST', '/logMessages', { id: MAX_ID, time: '2026-03-01T00:00:00.000Z', type: 'server', message: 'last' });
    expect(created.status).to.equal(201);
    expect((await relay.client.get(`/logMessages/${MAX_ID}`)).body.message).to.equal('last');
    expect((await relay.client.request('PUT', `/logMessages/${MAX_ID}`, { time: '2026-03-01T00:00:00.000Z', type: 'server', message: 'changed' })).status).to.equal(200);
    expect((await relay.client.request('DELETE', `/logMessages/${MAX_ID}`)).status).to.equal(204);
    const beyond = await relay.client.request('POST', '/logMessages', { id: MAX_ID + 1, time: '2026-03-01T00:00:00.000Z', type: 'server', message: 'x' });
    expect(beyond.status).to.equal(400);
    expect(fieldsOf(beyond.body)).to.deep.equal(['id']);
    expect((await relay.client.get(`/logMessages/${MAX_ID + 1}`)).status).to.equal(400);
  });

  it('never makes an id past the range, nor repeats one, after the largest was used', async () => {
    const next = await relay.client.request('POST', '/logMessages', { time: '2026-03-01T00:00:00.000Z', type: 'server', message: 'after the last' });
    expect(next.status).to.equal(400);
    expect(next.body.error.message).to.match(/no id is left/);
    const listed = ids((await relay.client.get('/logMessages?_limit=1000')).body);
    expect(new Set(listed).size).to.equal(listed.length);
  });

  it('does not give a deleted row its id again, across a restart', async () => {
    const dataDir = await makeDataDir();
    try {
      let { server, client } = await startTestRelay(dataDir);
      const first = (await client.request('POST', '/serverStatus', { startedAt: '2026-03-01T00:00:00.000Z', state: 'running' })).body.id as number;
      expect((await client.request('DELETE', `/serverStatus/${first}`)).status).to.equal(204);
      await server.close();
      ({ server, client } = await startTestRelay(dataDir));
      const second = (await client.request('POST', '/serverStatus', { startedAt: '2026-03-01T00:00:00.000Z', state: 'running' })).body.id as number;
      expect(second).to.be.above(first);
      await server.close();
    } finally {
      await removeDataDir(dataDir);
    }
  });
});

describe('relay: record times', function () {
  this.timeout(20_000);
  const relay = relayForSuite();

  it('stores one canonical UTC form, so that times compare in time order', async () => {
    const given = ['2026-04-01T10:00:00Z', '2026-04-01T10:00:00.5Z', '2026-04-01T12:00:01+02:00', '2026-04-01T10:00:02.25Z'];
    const stored = [];
    for (const time of given) stored.push((await relay.client.request('POST', '/logMessages', { time, type: 'server', message: 'timed' })).body.time);
    expect(stored).to.deep.equal(['2026-04-01T10:00:00.000Z', '2026-04-01T10:00:00.500Z', '2026-04-01T10:00:01.000Z', '2026-04-01T10:00:02.250Z']);
    const window = await relay.client.get('/logMessages?message=timed&time_gte=2026-04-01T10:00:00Z&time_lte=2026-04-01T10:00:02.25Z');
    expect(window.body.map((row: { time: string }) => row.time)).to.deep.equal(stored);
    const sorted = await relay.client.get('/logMessages?message=timed&_sort=time&_order=desc');
    expect(sorted.body.map((row: { time: string }) => row.time)).to.deep.equal([...stored].reverse());
    expect((await relay.client.get('/logMessages?message=timed&time=2026-04-01T12:00:01%2B02:00')).body).to.have.length(1);
  });

  it('sets time and startedAt to now when a POST gives none', async () => {
    const message = await relay.client.request('POST', '/logMessages', { type: 'server', message: 'untimed' });
    expect(message.status).to.equal(201);
    expect(Date.parse(message.body.time)).to.be.closeTo(Date.now(), 10_000);
    expect(message.body.time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const status = await relay.client.request('POST', '/serverStatus', { state: 'running' });
    expect(status.status).to.equal(201);
    expect(Date.parse(status.body.startedAt)).to.be.closeTo(Date.now(), 10_000);
  });

  it('stores a platform createdAt with an offset in the same UTC form', async () => {
    const platform = await relay.client.request('POST', '/platforms', { id: 'offset', name: 'O', createdAt: '2026-04-01T01:00:00+01:00' });
    expect(platform.body.createdAt).to.equal('2026-04-01T00:00:00.000Z');
  });
});
