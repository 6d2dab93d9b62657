import { expect } from 'chai';
import { epochNow } from '../src/epoch-clock.js';
import { spawnSync } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import { AdapterError, openUdpSource, wrapRtp, type LiveChunk, type LiveSourceEvent, type UdpSource, type UdpSourceOptions } from '../src/index.js';
import { rejectionOf } from '../../test-support/thrown.js';

// Unicast on 127.0.0.1 only: nothing here leaves the machine.
const LOOPBACK = '127.0.0.1';

/** Datagram i: 7 TS-like packets whose bytes say i, so order and content can be checked. */
function datagram(i: number, packets = 7): Uint8Array {
  const bytes = new Uint8Array(packets * 188).fill(i & 0xff);
  for (let p = 0; p < packets; p++) {
    bytes[p * 188] = 0x47;
    bytes[p * 188 + 1] = i >> 8;
  }
  return bytes;
}

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Reads chunks into an array until the source ends. */
function collect(source: UdpSource): { chunks: LiveChunk[]; ended: Promise<void> } {
  const chunks: LiveChunk[] = [];
  const ended = (async () => {
    for await (const chunk of source) chunks.push(chunk);
  })();
  return { chunks, ended };
}

describe('UDP source (unicast on 127.0.0.1)', () => {
  let sender: Socket;
  const sources: UdpSource[] = [];

  async function open(query = '', options: UdpSourceOptions = {}): Promise<{ source: UdpSource; events: LiveSourceEvent[] }> {
    const source = await openUdpSource(`udp://${LOOPBACK}:0${query}`, options);
    sources.push(source);
    const events: LiveSourceEvent[] = [];
    source.onEvent = (event) => events.push(event);
    return { source, events };
  }

  function send(source: UdpSource, bytes: Uint8Array): void {
    sender.send(bytes, source.localPort, LOOPBACK);
  }

  before(async () => {
    sender = createSocket('udp4');
    sender.bind(0, LOOPBACK);
    await once(sender, 'listening');
  });

  afterEach(async () => {
    await Promise.all(sources.splice(0).map((source) => source.close()));
  });

  after(() => sender.close());

  it('delivers each datagram as one chunk, in order, with its bytes and arrival time', async () => {
    const { source } = await open();
    expect(source.localAddress).to.equal(LOOPBACK);
    expect(source.localPort).to.be.above(0);
    const { chunks, ended } = collect(source);
    const before = epochNow();
    for (let i = 0; i < 50; i++) send(source, datagram(i));
    await waitFor(() => chunks.length === 50);
    const after = epochNow();
    chunks.forEach((chunk, i) => expect(chunk.bytes, `datagram ${i}`).to.deep.equal(datagram(i)));
    const arrivals = chunks.map((c) => c.receivedAt);
    expect(arrivals[0]).to.be.within(before, after);
    expect(arrivals.every((t, i) => i === 0 || t >= arrivals[i - 1]), 'arrival times never go back').to.be.true;
    expect(source.format).to.equal('ts');
    // The sender is named: for a multicast group, who sends to it.
    expect(source.stats()).to.deep.include({ chunks: 50, bytes: 50 * 7 * 188, rtp: false, applicationLoss: 0, lastChunkAt: arrivals[49], sender: `${LOOPBACK}:${sender.address().port}` });
    await source.close();
    await ended;
  });

  it('gives the same payload bytes for RTP-wrapped TS as for plain TS, and says it found RTP', async () => {
    const plain = await open();
    const wrapped = await open();
    const plainChunks = collect(plain.source).chunks;
    const wrappedChunks = collect(wrapped.source).chunks;
    for (let i = 0; i < 20; i++) {
      send(plain.source, datagram(i));
      send(wrapped.source, wrapRtp(datagram(i), { sequenceNumber: 100 + i, timestamp: i * 3000, ssrc: 7 }));
    }
    await waitFor(() => plainChunks.length === 20 && wrappedChunks.length === 20);
    expect(wrappedChunks.map((c) => c.bytes)).to.deep.equal(plainChunks.map((c) => c.bytes));
    expect(wrapped.source.stats()).to.include({ rtp: true, rtpGaps: 0, rtpLost: 0, bytes: 20 * 7 * 188 });
    expect(plain.source.stats().rtp).to.be.false;
  });

  it('leaves RTP-wrapped datagrams whole with rtp=off', async () => {
    const { source } = await open('?rtp=off');
    const { chunks } = collect(source);
    const packet = wrapRtp(datagram(1), { sequenceNumber: 1, timestamp: 0, ssrc: 7 });
    send(source, packet);
    await waitFor(() => chunks.length === 1);
    expect(chunks[0].bytes).to.deep.equal(packet);
    expect(source.stats().rtp).to.be.false;
  });

  it('reports an RTP gap with the number of packets lost, across the sequence wrap-around, at the offset where it happened', async () => {
    const { source, events } = await open();
    const { chunks } = collect(source);
    for (const sequenceNumber of [65_533, 65_534, 2, 3]) send(source, wrapRtp(datagram(sequenceNumber & 0xff), { sequenceNumber, timestamp: 0, ssrc: 7 }));
    await waitFor(() => chunks.length === 4);
    expect(events.map(({ kind, count, offset }) => ({ kind, count, offset }))).to.deep.equal([{ kind: 'rtp-gap', count: 3, offset: 2 * 7 * 188 }]);
    expect(events[0].message).to.match(/3 RTP packet\(s\) missing before sequence number 2/);
    expect(events[0].at).to.equal(chunks[2].receivedAt);
    expect(source.stats()).to.include({ rtpGaps: 1, rtpLost: 3 });
  });

  it('counts the datagrams it drops while the consumer is behind, in coalesced events, and keeps the oldest', async () => {
    const { source, events } = await open('', { maxQueueDatagrams: 10 });
    for (let i = 0; i < 100; i++) send(source, datagram(i));
    await waitFor(() => source.stats().chunks === 100);
    await waitFor(() => events.reduce((n, e) => n + e.count, 0) === 90, 1000);
    expect(source.stats().applicationLoss).to.equal(90);
    expect(events.every((e) => e.kind === 'application-loss')).to.be.true;
    expect(events.length, 'at most one event per 100 ms').to.be.within(1, 3);
    expect(events[0].offset).to.equal(10 * 7 * 188);
    const kept: LiveChunk[] = [];
    for await (const chunk of source) {
      kept.push(chunk);
      if (kept.length === 10) break;
    }
    expect(kept.map((c) => c.bytes[2])).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('drops by bytes too: the queue holds at most maxQueueBytes', async () => {
    const { source } = await open('', { maxQueueBytes: 3 * 7 * 188 });
    for (let i = 0; i < 5; i++) send(source, datagram(i));
    await waitFor(() => source.stats().chunks === 5);
    expect(source.stats().applicationLoss).to.equal(2);
  });

  it('ends the iteration on close, and closing twice is fine', async () => {
    const { source } = await open();
    const { chunks, ended } = collect(source);
    send(source, datagram(1));
    await waitFor(() => chunks.length === 1);
    await Promise.all([source.close(), source.close()]);
    await ended;
    await source.close();
    // The port is free again: a socket without address sharing can take it.
    const probe = createSocket({ type: 'udp4' });
    probe.bind(source.localPort, LOOPBACK);
    await once(probe, 'listening');
    probe.close();
  });

  it('closes when its abort signal fires', async () => {
    const controller = new AbortController();
    const { source } = await open('', { signal: controller.signal });
    const { ended } = collect(source);
    controller.abort();
    await ended;
    expect(await rejectionOf(openUdpSource(`udp://${LOOPBACK}:0`, { signal: controller.signal })), 'an aborted signal opens nothing').to.have.property('name', 'AbortError');
  });

  it('reports the receive buffer the kernel granted', async () => {
    const { source } = await open('?rcvbuf=65536');
    // Linux books twice what is set, for its own overhead.
    expect(source.stats().receiveBufferBytes).to.be.oneOf([65_536, 131_072]);
  });

  it('refuses a bad URL with ERR_SOURCE_URL_INVALID and an address of no local interface with ERR_SOCKET', async () => {
    expect(await rejectionOf(openUdpSource('udp://127.0.0.1'))).to.be.instanceOf(AdapterError).and.have.property('code', 'ERR_SOURCE_URL_INVALID');
    // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never an address of this machine. Binding sends nothing.
    const refused = await rejectionOf(openUdpSource('udp://192.0.2.1:5000'));
    if (!(refused instanceof AdapterError)) throw refused;
    expect(refused.code).to.equal('ERR_SOCKET');
    expect(refused.details).to.include({ errno: 'EADDRNOTAVAIL' });
    expect(refused.message).to.match(/cannot bind 192\.0\.2\.1:5000.*not one of this machine/);
  });

  it('refuses a unicast port that another source holds, rather than sharing it', async () => {
    const { source } = await open();
    const refused = await rejectionOf(openUdpSource(`udp://${LOOPBACK}:${source.localPort}`));
    expect(refused).to.be.instanceOf(AdapterError).and.have.nested.property('details.errno', 'EADDRINUSE');
  });

  it('reports the datagrams the kernel dropped on the socket while the process was busy', async function () {
    this.timeout(10_000);
    const { source, events } = await open('?rcvbuf=4096', { socketDropsIntervalMs: 20 });
    // Another process sends while this one is blocked, so the kernel buffer overflows.
    const script = `const s=require('dgram').createSocket('udp4');let n=0;const b=Buffer.alloc(1316,0x47);
      (function go(){for(let i=0;i<50&&n<500;i++,n++)s.send(b,${source.localPort},'${LOOPBACK}');if(n<500)setImmediate(go);else setTimeout(()=>s.close(),50);})();`;
    // spawnSync blocks this process until the sender is done: nothing is read off the socket meanwhile.
    expect(spawnSync(process.execPath, ['-e', script]).status).to.equal(0);
    await waitFor(() => source.stats().socketDrops > 0 && source.stats().chunks + source.stats().socketDrops === 500, 3000);
    const drops = events.filter((e) => e.kind === 'socket-drops');
    expect(drops.reduce((n, e) => n + e.count, 0)).to.equal(source.stats().socketDrops);
    expect(drops[0].message).to.match(/the kernel dropped \d+ datagram\(s\) on the socket/);
  });
});
