/**
 * Issue 35, the fuzz run's defect: "GET /recorderState: no answer (fetch
 * failed)", and kept-alive connections reset (ECONNRESET) on a GET. The
 * fuzz runner blocked its event loop, which the services under fuzz share,
 * for about 5 s while fast-check made an operation's 33,334 requests; the
 * connection's keep-alive timer expired meanwhile, the next request was
 * written to the socket, and Node's timer then closed the socket with that
 * request unread in it. Any service whose loop is busy past the keep-alive
 * bound (a long synchronous job) did the same to its clients. The
 * streaming module here, on real sockets, with its keep-alive bound made
 * small; a raw client writes its request at the instant the loop is
 * freed, so the race is the same every run.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '../../../test-support/until.js';
import { startStreamingServer, type RunningStreamingServer } from '../../src/streaming/start-streaming-server.js';
import { rawHttpClient } from '../../../test-support/raw-http-client.js';

const KEEP_ALIVE_MS = 300;
/** Node keeps an idle socket a second past the bound it advertises (its HTTP_SERVER_KEEP_ALIVE_TIMEOUT_BUFFER). */
const NODE_KEEP_ALIVE_BUFFER_MS = 1_000;

const GET_RECORDER_STATE = 'GET /recorderState HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n';

/** The number of complete `HTTP/1.1 200` answers in what a client received. */
const answers = (text: string): number => text.split('HTTP/1.1 200 OK\r\n').length - 1;

function blockEventLoop(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // The loop held, as fast-check's sampling held the fuzz runner's.
  }
}

describe('an idle kept-alive connection', function () {
  this.timeout(30_000);
  let streaming: RunningStreamingServer;
  let port: number;
  let dataDir: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'klvscope-keep-alive-'));
    streaming = await startStreamingServer({ port: 0, env: {}, dataDir, onExit: () => undefined, connectionLimits: { keepAliveTimeoutMs: KEEP_ALIVE_MS } });
    port = streaming.port;
  });

  after(async () => {
    await streaming?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a request that arrived while the event loop was busy past the keep-alive bound', async () => {
    const client = await rawHttpClient(port);
    client.socket.write(GET_RECORDER_STATE);
    await until('the first answer', 10_000, () => answers(client.received()) === 1);
    blockEventLoop(KEEP_ALIVE_MS + NODE_KEEP_ALIVE_BUFFER_MS + 500);
    // Written before the loop runs its expired timers: the request waits in the socket as the timer fires.
    client.socket.write(GET_RECORDER_STATE);
    await until('the second answer, or the connection closed', 10_000, () => answers(client.received()) === 2 || client.closed());
    expect(answers(client.received()), `the connection was closed with the request unread (closed: ${client.closed()})`).to.equal(2);
    client.socket.destroy();
  });

  it('is still closed once idle past the bound', async () => {
    const client = await rawHttpClient(port);
    client.socket.write(GET_RECORDER_STATE);
    await until('the answer', 10_000, () => answers(client.received()) === 1);
    const answered = Date.now();
    await until('the idle connection closed by the service', 10_000, () => client.closed());
    const idleMs = Date.now() - answered;
    expect(idleMs).to.be.at.least(KEEP_ALIVE_MS);
    // The bound, Node's buffer, a check of the socket one turn of the loop later, and the polling of `until`.
    expect(idleMs).to.be.below(KEEP_ALIVE_MS + NODE_KEEP_ALIVE_BUFFER_MS + 1_000);
  });
});
