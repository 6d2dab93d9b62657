import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { createLiveChannel, type LiveChannel } from '../../src/live/live-channel.js';
import type { LiveSessions } from '../../src/live/live-sessions.js';

/** Sends a WebSocket upgrade request by hand and returns every byte of the answer, as text. */
function upgradeAnswer(port: number, path: string, host: string | null): Promise<string> {
  const lines = [`GET ${path} HTTP/1.1`, ...(host === null ? [] : [`Host: ${host}`]), 'Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', '', ''];
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(lines.join('\r\n')));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // An accepted upgrade keeps the socket open: its status line is all the test needs.
      if (Buffer.concat(chunks).toString('latin1').startsWith('HTTP/1.1 101 ')) socket.destroy();
    });
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

function refusal(status: string, body: string): string {
  return `HTTP/1.1 ${status}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

describe('the live channel upgrade', () => {
  let server: Server;
  let channel: LiveChannel;
  let port: number;

  before(async () => {
    server = createServer((_request, response) => response.end());
    // The sessions are reached only by an accepted subscription, which these tests never make.
    channel = createLiveChannel({} as LiveSessions, 'test-key');
    channel.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  after(async () => {
    await channel.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('refuses another path with a 404 and the JSON error body of the REST surface', async () => {
    const body = '{"error":{"code":"ERR_ROUTE_NOT_FOUND","message":"no WebSocket endpoint at /elsewhere: the live channel is /api/v1/live"}}';
    expect(await upgradeAnswer(port, '/elsewhere', `127.0.0.1:${port}`)).to.equal(refusal('404 Not Found', body));
  });

  it('refuses a Host header naming another site with a 403 and the JSON error body of the REST surface', async () => {
    const body = `{"error":{"code":"ERR_HOST_HEADER_REFUSED","message":"the Host header 'evil.example:${port}' does not name the loopback interface"}}`;
    expect(await upgradeAnswer(port, '/api/v1/live', `evil.example:${port}`)).to.equal(refusal('403 Forbidden', body));
  });

  it('upgrades with a loopback Host header, or with none', async () => {
    for (const host of [`127.0.0.1:${port}`, `[::1]:${port}`, 'localhost', null]) {
      expect(await upgradeAnswer(port, '/api/v1/live', host), String(host)).to.match(/^HTTP\/1\.1 101 /);
    }
  });
});
