/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-explicit-any -- JSON answers are read loosely: the assertions check their values */
import { expect } from 'chai';
import { freeUdpPort } from '../../../test-support/free-udp-port.js';
import { startStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { startTestServer, tempDataDir } from '../inspection/test-server.js';
import { relayForSuite, TEST_KEY } from '../relay/relay-test-server.js';

/** A request that says its body is JSON and sends none, as clients that set the header on every request do. */
async function emptyJson(url: string, method: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { method, headers: { 'content-type': 'application/json', ...headers } });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

describe('an empty body with Content-Type: application/json is no body', function () {
  this.timeout(30_000);

  describe('on the relay', () => {
    const relay = relayForSuite();

    it('deletes a channel with a bodyless DELETE (204)', async () => {
      const created = await relay.client.request('POST', '/platforms', { id: 'p', name: 'P', channels: [{ channelId: 'c', name: 'C', input: 'udp://127.0.0.1:9' }] });
      expect(created.status).to.equal(201);
      expect((await emptyJson(`${relay.server.url}/api/channels/c`, 'DELETE', { 'x-api-key': TEST_KEY })).status).to.equal(204);
      expect((await emptyJson(`${relay.server.url}/api/platforms/p`, 'DELETE', { 'x-api-key': TEST_KEY })).status).to.equal(204);
    });

    it('runs a command given in the query', async () => {
      await relay.client.request('POST', '/platforms', { id: 'q', name: 'Q', channels: [{ channelId: 'd', name: 'D', input: 'udp://127.0.0.1:9' }] });
      const answer = await emptyJson(`${relay.server.url}/api/channels/command?channelId=d&command=stop`, 'POST', { 'x-api-key': TEST_KEY });
      expect(answer.status).to.equal(200);
      expect(answer.body.channel.state).to.equal('stopped');
    });

    it('still refuses a body that is not JSON', async () => {
      const response = await fetch(`${relay.server.url}/api/channels/command`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': TEST_KEY }, body: '{' });
      expect(response.status).to.equal(400);
      expect(((await response.json()) as any).error.code).to.equal('ERR_MALFORMED_JSON');
    });
  });

  it('on the inspection service: a bodyless DELETE of an unknown job is judged by its route (404), not refused as JSON', async () => {
    const server = await startTestServer({ dataDir: tempDataDir() });
    try {
      const answer = await emptyJson(`${server.url}/ingest/file/jobs/no-such-job`, 'DELETE', { 'x-api-key': server.key });
      expect(answer.body.error.code).to.not.equal('ERR_MALFORMED_JSON');
      expect(answer.status).to.equal(404);
    } finally {
      await server.close();
    }
  });

  it('on the streaming module: a bodyless command is told what the body lacks, not that it is malformed', async () => {
    const server = await startStreamingServer({ dataDir: tempDataDir(), port: 0, env: {}, config: { source: `udp://127.0.0.1:${await freeUdpPort()}` } });
    try {
      const { user, password } = server.credentials;
      const answer = await emptyJson(`${server.url}/command`, 'POST', { authorization: `Basic ${user} ${password}` });
      expect(answer.status).to.equal(400);
      expect(answer.body.error.code).to.equal('ERR_INVALID_FIELD');
    } finally {
      await server.close();
    }
  });
});
