import { expect } from 'chai';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { connectViewer } from './stream-client.js';
import { tempFolder } from './temp-folder.js';

async function post(server: RunningStreamingServer, body: string, authorization: string): Promise<{ status: number; code: string | undefined }> {
  const response = await fetch(`${server.url}/command`, { method: 'POST', headers: { 'content-type': 'application/json', authorization }, body });
  const json = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: json.error?.code };
}

describe('the commands of the streaming module', function () {
  this.timeout(30_000);
  let server: RunningStreamingServer | null = null;

  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('checks the credentials before the body: a wrong password with a body that is not JSON gets 401, not 400', async () => {
    server = await startStreamingServer({ dataDir: tempFolder('commands'), port: 0, env: {} });
    expect(await post(server, '{"service":', `Basic ${server.credentials.user} not-the-password`)).to.deep.equal({ status: 401, code: 'ERR_CREDENTIALS_WRONG' });
    expect(await post(server, '{"service":', `Basic ${server.credentials.user} ${server.credentials.password}`)).to.deep.equal({ status: 400, code: 'ERR_MALFORMED_JSON' });
  });

  it('closes every viewer with code 1001 on streamer exit, after answering', async () => {
    server = await startStreamingServer({ dataDir: tempFolder('commands'), port: 0, env: {} });
    const viewers = [await connectViewer(server.url), await connectViewer(server.url)];
    await viewers[0].until(() => viewers[0].bytes().length > 0, 10_000, 'the demo stream');
    const answer = await post(server, JSON.stringify({ service: 'streamer', command: 'exit', params: '' }), `Basic ${server.credentials.user} ${server.credentials.password}`);
    expect(answer.status).to.equal(200);
    const closes = await Promise.all(viewers.map((viewer) => viewer.closed));
    expect(closes).to.deep.equal([
      { code: 1001, reason: 'the streaming module stops' },
      { code: 1001, reason: 'the streaming module stops' },
    ]);
    await server.closed;
  });
});
