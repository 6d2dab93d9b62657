/* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access -- json-server is CommonJS without types */
/**
 * The relay's generated collections against json-server 0.17 (the npm dev
 * dependency), both on real sockets over HTTP: the same rows, inserted in
 * the same order, and the same battery of collection queries. Every answer
 * must be equal (rows, their order, and X-Total-Count where json-server
 * gives one), except the queries docs/relay.md lists under "Compared with
 * json-server 0.17" with the reason for each: those must differ, so the
 * list stays true.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'chai';
import { repoRoot } from '../../../test-support/fixtures.js';
import { relayForSuite } from './relay-test-server.js';

const at = (minute: number, second = 0): string => new Date(Date.UTC(2026, 0, 1, 12, minute, second)).toISOString();
const LOG_TYPES = ['started', 'no-signal', 'signal-back', 'alarm', 'alarm-cleared', 'stopped', 'error'];
const STATES = ['running', 'stopped', 'error'];

// Insertion order differs from id order on purpose: json-server lists rows as inserted.
const platforms = ['p07', 'p02', 'p11', 'p01', 'p05', 'p09', 'p03', 'p12', 'p04', 'p10', 'p06', 'p08'].map((id, i) => ({
  id,
  createdAt: new Date(Date.UTC(2026, 0, 1 + ((i * 5) % 12), 8, i)).toISOString(),
  name: ['Alpha', 'bravo', 'Charlie', 'delta', 'Echo', 'alpha two', 'Mike', 'November', 'oscar', 'Papa', 'Quebec', 'Romeo'][i],
  description: i % 3 === 0 ? 'EO/IR' : i % 3 === 1 ? 'SAR' : '',
  channels: [] as unknown[],
}));
const serverStatus = Array.from({ length: 25 }, (_, i) => ({
  id: [3, 1, 2, 5, 4][i % 5] + 5 * Math.floor(i / 5),
  startedAt: at(i * 2, (i * 7) % 60),
  state: STATES[(i * 2) % 3],
  errorMessage: i % 4 === 0 ? `port ${5000 + i} in use` : '',
}));
const logMessages = Array.from({ length: 40 }, (_, i) => ({
  id: 40 - i,
  time: at(0, (i * 13) % 40),
  type: LOG_TYPES[i % LOG_TYPES.length],
  message: `channel ${i % 2 === 0 ? 'eo' : 'IR'}: ${LOG_TYPES[i % LOG_TYPES.length]} ${i}`,
}));

const QUERIES: Readonly<Record<string, readonly string[]>> = {
  platforms: [
    '', '_sort=name', '_sort=name&_order=desc', '_sort=name&_order=DESC', '_sort=createdAt', '_sort=createdAt&_order=desc', '_sort=description,name',
    '_sort=description,name&_order=desc,asc', '_limit=5', '_limit=5&_page=2', '_page=2', '_page=3&_limit=4', 'name=Alpha', 'name=alpha', 'id=p03',
    'id=p03&id=p07', 'id_ne=p03', 'name_like=al', 'name_like=AL', 'description_like=eo', 'createdAt_gte=2026-01-05T00:00:00.000Z',
    'createdAt_lte=2026-01-05T00:00:00.000Z', 'createdAt_gte=2026-01-03T00:00:00.000Z&createdAt_lte=2026-01-08T00:00:00.000Z', 'name_gte=M', 'description=EO/IR&_sort=name',
  ],
  serverStatus: [
    '', '_sort=startedAt', '_sort=startedAt&_order=desc', '_sort=id&_order=desc&_limit=1', 'state=running', 'state=running&state=error', 'state_ne=running', 'id=5',
    'id_gte=10', 'id_lte=4', 'id_gte=5&id_lte=9', 'id_gte=2&id_gte=20', 'errorMessage_like=port', '_sort=state,id', '_sort=state,startedAt&_order=asc,desc', '_limit=10&_page=3',
    '_page=2&_limit=10&_sort=startedAt', 'startedAt_gte=2026-01-01T12:10:00.000Z', 'state=stopped&_sort=id&_order=desc', '_limit=3',
  ],
  logMessages: [
    '', '_sort=time', '_sort=time&_order=desc', '_sort=type,time', 'type=alarm', 'type=alarm&type=alarm-cleared', 'type_ne=started', 'message_like=channel eo',
    'message_like=EO', 'time_gte=2026-01-01T12:00:10.000Z', 'time_lte=2026-01-01T12:00:05.000Z', 'time_gte=2026-01-01T12:00:05.000Z&time_lte=2026-01-01T12:00:20.000Z',
    'id=3&id=30', 'id_ne=1', '_limit=7&_page=6', '_limit=7&_page=7', '_sort=id&_order=desc&_limit=5', 'type=no-signal&_sort=time&_order=desc&_limit=2',
    'message_like=alarm&type_ne=alarm', '_sort=message', 'id_gte=35', 'time=2026-01-01T12:00:26.000Z', '_page=2',
  ],
};

/** The queries docs/relay.md lists as deliberate differences: the first cell of each row of its table, `collection?query`. */
function documentedDifferences(): Set<string> {
  const docs = readFileSync(join(repoRoot, 'docs', 'relay.md'), 'utf8');
  const section = docs.slice(docs.indexOf('### Compared with json-server 0.17'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('|')));
  return new Set([...table.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]));
}

interface Answer {
  status: number;
  total: string | null;
  body: unknown;
}

async function answerOf(url: string): Promise<Answer> {
  const response = await fetch(url);
  return { status: response.status, total: response.headers.get('x-total-count'), body: await response.json() };
}

describe('relay: the generated collections answer as json-server 0.17 does', function () {
  this.timeout(60_000);
  const relay = relayForSuite();
  let jsonServer: Server;
  let jsonServerUrl = '';

  before(async () => {
    const require = createRequire(import.meta.url);
    const jsonServerModule = require('json-server');
    const app = jsonServerModule.create();
    app.use(jsonServerModule.router(structuredClone({ platforms, serverStatus, logMessages })));
    jsonServer = await new Promise<Server>((resolve) => {
      const server: Server = app.listen(0, '127.0.0.1', () => resolve(server));
    });
    const address = jsonServer.address();
    jsonServerUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;

    // The relay writes its own server status at start: gone, so both hold the same rows.
    for (const row of (await relay.client.get('/serverStatus')).body as Array<{ id: number }>) expect((await relay.client.request('DELETE', `/serverStatus/${row.id}`)).status).to.equal(204);
    for (const row of (await relay.client.get('/logMessages')).body as Array<{ id: number }>) expect((await relay.client.request('DELETE', `/logMessages/${row.id}`)).status).to.equal(204);
    for (const p of platforms) expect((await relay.client.request('POST', '/platforms', p)).status).to.equal(201);
    for (const s of serverStatus) expect((await relay.client.request('POST', '/serverStatus', s)).status).to.equal(201);
    for (const m of logMessages) expect((await relay.client.request('POST', '/logMessages', m)).status).to.equal(201);
  });

  after(async () => {
    await new Promise((resolve) => jsonServer?.close(resolve));
  });

  it(`gives the same answers to ${Object.values(QUERIES).flat().length} collection queries, but for the differences docs/relay.md lists with their reasons`, async () => {
    const differing: string[] = [];
    const details: string[] = [];
    for (const [collection, queries] of Object.entries(QUERIES)) {
      for (const query of queries) {
        const path = `${collection}${query === '' ? '' : `?${query}`}`;
        const [ours, theirs] = await Promise.all([answerOf(`${relay.server.url}/api/${path}`), answerOf(`${jsonServerUrl}/${path}`)]);
        // json-server gives X-Total-Count only when it slices (_page, _limit): compared there; the relay gives it always.
        const same = ours.status === theirs.status && JSON.stringify(ours.body) === JSON.stringify(theirs.body) && (theirs.total === null || theirs.total === ours.total);
        if (!same) {
          differing.push(path);
          details.push(`${path}: relay ${ours.status} ${ours.total} ${JSON.stringify(ours.body).slice(0, 160)} | json-server ${theirs.status} ${theirs.total} ${JSON.stringify(theirs.body).slice(0, 160)}`);
        }
      }
    }
    expect(Object.values(QUERIES).flat().length).to.be.at.least(60);
    expect(new Set(differing), `differences:\n${details.join('\n')}`).to.deep.equal(documentedDifferences());
  });
});
