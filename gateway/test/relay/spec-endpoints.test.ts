/* eslint-disable @typescript-eslint/no-unsafe-member-access -- JSON answers are read loosely: the assertions check their values */
/**
 * The meta-test: every endpoint of ../shared/spec/channel-relay.md's tables
 * is served. The tables are parsed (methods and paths in backticks; the rows
 * the spec leaves without a path map to ours, docs/relay.md; the generated
 * resource table is expanded for its three resources), each endpoint asked
 * with the key, and its answer must not be "no such route". The parsed list
 * is also compared with the pinned list, so a fresh clone without
 * ../shared still checks every endpoint.
 */
import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { fixturesDir } from '../../../test-support/fixtures.js';
import { relayForSuite } from './relay-test-server.js';

const SPEC = fixturesDir.replace(/fixtures$/, 'spec/channel-relay.md');

/** Our paths for the spec's rows that name none. */
const UNNAMED: Readonly<Record<string, string>> = {
  'platform command (start or stop a platform)': '/api/platforms/{id}/command',
  'platform upload (uploads platforms)': '/api/platforms/upload',
};
const GENERATED = ['/api/platforms', '/api/serverStatus', '/api/logMessages'];

const PINNED: readonly string[] = [
  'GET /api/info',
  'GET /api/health',
  'GET /api/nics',
  'GET /api/bitrates',
  'GET /api/streamDetectionInfo',
  'GET /api/docs',
  'POST /api/channels/command',
  'POST /api/platforms/{id}/command',
  'POST /api/server/uploadLicense',
  'POST /api/platforms/upload',
  'DELETE /api/channels/:channelId',
  ...GENERATED.flatMap((path) => [`GET ${path}`, `POST ${path}`, `GET ${path}/{id}`, `PUT ${path}/{id}`, `DELETE ${path}/{id}`]),
  'POST /api/setAllChannelStates',
  'POST /api/setAllOutputStates',
  'POST /api/setChannelState',
  'POST /api/setChannelOutputStateAndError',
  'POST /api/clearBitrateArray',
  'POST /api/updateChannelBitrate',
];

/** `METHOD PATH` of every endpoint row of the spec's tables. */
function specEndpoints(text: string): string[] {
  const endpoints: string[] = [];
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 4) continue;
    const [, first, second] = cells;
    if (/^(GET|POST|PUT|DELETE|PATCH)$/.test(first)) {
      const path = /^`([^`]+)`/.exec(second)?.[1];
      if (path !== undefined && path.startsWith('/api')) endpoints.push(`${first} ${path}`);
      else if (second === 'collection') endpoints.push(...GENERATED.map((p) => `${first} ${p}`));
      else if (second.startsWith('item by')) endpoints.push(...GENERATED.map((p) => `${first} ${p}/{id}`));
      else if (UNNAMED[second] !== undefined) endpoints.push(`${first} ${UNNAMED[second]}`);
      else throw new Error(`a row of the spec this test cannot read: ${line}`);
    } else if (/^`\/api\/[A-Za-z]+`$/.test(first) && /listed/.test(second)) {
      // The state-setting table: every path is a POST.
      endpoints.push(`POST ${first.slice(1, -1)}`);
    }
  }
  return endpoints;
}

describe('relay: every endpoint of the spec is served', function () {
  this.timeout(20_000);
  const relay = relayForSuite();

  before(async () => {
    await relay.client.request('POST', '/platforms', { id: 'p', name: 'P', channels: [{ channelId: 'c', name: 'C', input: 'udp://127.0.0.1:9' }] });
    // Now (the default): an older one would go with the log's retention (30 days) at the next message.
    await relay.client.request('POST', '/logMessages', { type: 'server', message: 'x' });
  });


  it("finds in the spec's tables exactly the pinned endpoints", function () {
    if (!existsSync(SPEC)) {
      console.log(`      skipped: ${SPEC} not found`);
      this.skip();
    }
    expect(specEndpoints(readFileSync(SPEC, 'utf8'))).to.have.members([...PINNED]);
  });

  it('answers each of them with something other than "no such route"', async () => {
    for (const endpoint of PINNED) {
      const [method, template] = endpoint.split(' ');
      const path = template
        .replace('{id}/command', 'p/command?command=stop')
        .replace(/^\/api\/platforms\/\{id\}$/, '/api/platforms/p')
        .replace('{id}', '1')
        .replace(':channelId', 'c')
        .replace(/^\/api/, '');
      const body = method === 'POST' || method === 'PUT' ? {} : undefined;
      const response = await relay.client.request(method, path, body);
      expect(response.status, endpoint).to.not.equal(404);
      if (response.status >= 400) {
        // A 400 is the project's JSON error body, naming what is wrong with the empty body.
        expect(response.status, endpoint).to.equal(400);
        expect(response.body.error.code, endpoint).to.be.oneOf(['ERR_INVALID_FIELD']);
      }
    }
  });
});
