import { expect } from 'chai';
import WebSocket from 'ws';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { tempFolder } from './temp-folder.js';

/** The HTTP status the /stream upgrade is answered with: 101 when the socket opens, else the refusal's status and JSON body. */
function upgradeStatus(server: RunningStreamingServer, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/stream`, { headers });
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.close();
      resolve({ status: 101, body: '' });
    });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.once('error', (error) => reject(error));
  });
}

describe('the /stream WebSocket of a streaming module on loopback', function () {
  this.timeout(20_000);
  let server: RunningStreamingServer;

  before(async () => {
    server = await startStreamingServer({ dataDir: tempFolder('socket-guard'), port: 0, env: {} });
  });

  after(async () => {
    await server?.close();
  });

  it('refuses an upgrade whose Host names another site with 403 ERR_HOST_HEADER_REFUSED, as HTTP refuses it', async () => {
    const refused = await upgradeStatus(server, { host: `rebound.example:${server.port}` });
    expect(refused.status).to.equal(403);
    expect((JSON.parse(refused.body) as { error: { code: string } }).error.code).to.equal('ERR_HOST_HEADER_REFUSED');
  });

  it('refuses an upgrade from a page of another origin with 403 ERR_ORIGIN_REFUSED', async () => {
    const refused = await upgradeStatus(server, { origin: 'http://rebound.example' });
    expect(refused.status).to.equal(403);
    expect((JSON.parse(refused.body) as { error: { code: string } }).error.code).to.equal('ERR_ORIGIN_REFUSED');
  });

  it('opens the socket for the viewer page on loopback and for a client that sends no Origin', async () => {
    expect((await upgradeStatus(server, { origin: server.url })).status).to.equal(101);
    expect((await upgradeStatus(server, { origin: `http://localhost:${server.port}` })).status).to.equal(101);
    expect((await upgradeStatus(server, {})).status).to.equal(101);
  });
});
