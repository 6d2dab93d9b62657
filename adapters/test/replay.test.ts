import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTransportStream, parseFaultSpec, type GeneratorOptions } from '@klvscope/core';
import { AdapterError } from '../src/adapter-error.js';
import type { LiveChunk } from '../src/live-source.js';
import { freeUdpPort } from '../../test-support/free-udp-port.js';
import { replayFile, type ReplayOptions, type ReplayStats } from '../src/replay.js';
import { MP2T_PAYLOAD_TYPE, rtpSequenceNumber, rtpTimestamp } from '../src/rtp.js';
import { openUdpSource, type UdpSource } from '../src/udp.js';
import { rejectionOf } from '../../test-support/thrown.js';

// Unicast on 127.0.0.1 only: nothing here leaves the machine (multicast: see multicast.test.ts).
const LOOPBACK = '127.0.0.1';
const BITRATE = 2_000_000;

interface Received {
  stats: ReplayStats;
  chunks: LiveChunk[];
  source: UdpSource;
  bytes: Uint8Array;
  /** From the first datagram's arrival to the last's. */
  spanMs: number;
}

function joined(chunks: readonly LiveChunk[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.bytes.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c.bytes, at);
    at += c.bytes.length;
  }
  return out;
}

/** Milliseconds from the first packet to the last of a constant-bitrate stream of `bytes` 188-byte packets. */
function streamMs(bytes: Uint8Array): number {
  return ((bytes.length - 188) * 8 * 1000) / BITRATE;
}

describe('replay to 127.0.0.1', function () {
  this.timeout(10_000);
  let dir: string;
  let fileNumber = 0;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'klvscope-replay-'));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function streamFile(options: Partial<GeneratorOptions> & { durationSeconds: number }): Promise<{ path: string; bytes: Uint8Array }> {
    const { bytes } = generateTransportStream({ bitrate: BITRATE, ...options });
    const path = join(dir, `stream-${fileNumber++}.ts`);
    await writeFile(path, bytes);
    return { path, bytes };
  }

  /** Replays `path` to a fresh source on 127.0.0.1 and gathers what arrives. */
  async function replayAndReceive(path: string, options: ReplayOptions = {}, sourceQuery = ''): Promise<Received> {
    const source = await openUdpSource(`udp://${LOOPBACK}:0${sourceQuery}`);
    const chunks: LiveChunk[] = [];
    const reading = (async () => {
      for await (const chunk of source) chunks.push(chunk);
    })();
    try {
      const stats = await replayFile(path, `udp://${LOOPBACK}:${source.localPort}`, options);
      const deadline = Date.now() + 1000;
      while (source.stats().chunks < stats.datagrams && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      await source.close();
      await reading;
      const spanMs = chunks.length > 1 ? chunks[chunks.length - 1].receivedAt - chunks[0].receivedAt : 0;
      return { stats, chunks, source, bytes: joined(chunks), spanMs };
    } finally {
      await source.close();
    }
  }

  it('replays a stream in about its PCR duration at speed 1, every byte arriving in order', async () => {
    const { path, bytes } = await streamFile({ durationSeconds: 1.5 });
    const received = await replayAndReceive(path);
    const expectedMs = streamMs(bytes);
    expect(received.bytes).to.deep.equal(bytes);
    expect(received.stats).to.include({ datagrams: Math.ceil(bytes.length / 1316), packets: bytes.length / 188, bytes: bytes.length, loops: 0, sendErrors: 0, aborted: false });
    expect(received.stats.durationMs).to.be.closeTo(expectedMs, 0.05 * expectedMs + 30);
    expect(received.spanMs).to.be.closeTo(expectedMs, 0.05 * expectedMs + 30);
    expect(received.source.stats()).to.include({ applicationLoss: 0, rtp: false });
  });

  /** Every byte arrives, over about the stream's duration divided by `speed`. */
  async function expectPacedAtSpeed(file: { path: string; bytes: Uint8Array }, speed: number): Promise<void> {
    const received = await replayAndReceive(file.path, { speed });
    const expectedMs = streamMs(file.bytes) / speed;
    expect(received.bytes).to.deep.equal(file.bytes);
    expect(received.spanMs).to.be.closeTo(expectedMs, 0.1 * expectedMs + 30);
  }

  it('replays four times as fast at speed 4', async () => {
    await expectPacedAtSpeed(await streamFile({ durationSeconds: 2 }), 4);
  });

  it('sends as fast as it can at speed 0', async () => {
    const { path, bytes } = await streamFile({ durationSeconds: 3 });
    const received = await replayAndReceive(path, { speed: 0 });
    expect(received.bytes).to.deep.equal(bytes);
    expect(received.stats.durationMs).to.be.below(streamMs(bytes) / 10);
    expect(received.stats.maxLatenessMs).to.equal(0);
  });

  it('packs packetsPerDatagram packets into each datagram, the last one shorter', async () => {
    const { path, bytes } = await streamFile({ durationSeconds: 0.3 });
    const packets = bytes.length / 188;
    const received = await replayAndReceive(path, { speed: 0, packetsPerDatagram: 5 });
    const sizes = received.chunks.map((c) => c.bytes.length);
    expect(sizes.slice(0, -1).every((size) => size === 5 * 188)).to.be.true;
    expect(sizes[sizes.length - 1]).to.equal((packets % 5 || 5) * 188);
    expect(received.bytes).to.deep.equal(bytes);
  });

  it('sends the 188-byte packets of 192 and 204-byte files', async () => {
    const plain = await streamFile({ durationSeconds: 0.5 });
    for (const packetSize of [192, 204] as const) {
      const framed = await streamFile({ durationSeconds: 0.5, packetSize });
      expect(framed.bytes.length).to.equal((plain.bytes.length / 188) * packetSize);
      const received = await replayAndReceive(framed.path, { speed: 0 });
      expect(received.bytes, `${packetSize}-byte packets`).to.deep.equal(plain.bytes);
    }
  });

  it('wraps each datagram in RTP: type 33, consecutive sequence numbers, 90 kHz timestamps of the due time', async () => {
    const { path, bytes } = await streamFile({ durationSeconds: 1 });
    const raw = await replayAndReceive(path, { rtp: true, speed: 2 }, '?rtp=off');
    const datagrams = raw.chunks.map((c) => c.bytes);
    expect(datagrams.every((d) => d[0] === 0x80 && d[1] === MP2T_PAYLOAD_TYPE)).to.be.true;
    const sequence = datagrams.map((d) => rtpSequenceNumber(d));
    expect(sequence.every((n, i) => i === 0 || n === (sequence[i - 1] + 1) % 65_536)).to.be.true;
    const ticks = (rtpTimestamp(datagrams[datagrams.length - 1]) - rtpTimestamp(datagrams[0]) + 2 ** 32) % 2 ** 32;
    expect(ticks / 90).to.be.closeTo(streamMs(bytes) / 2, 15);
    expect(raw.stats.bytes).to.equal(bytes.length + 12 * datagrams.length);

    const unwrapped = await replayAndReceive(path, { rtp: true, speed: 0 });
    expect(unwrapped.bytes).to.deep.equal(bytes);
    expect(unwrapped.source.stats()).to.include({ rtp: true, rtpGaps: 0, rtpLost: 0 });
  });

  it('loops with the clock running on: the file again and again at an even rate, until aborted', async () => {
    const { path, bytes } = await streamFile({ durationSeconds: 0.4 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1300);
    const received = await replayAndReceive(path, { loop: true, signal: controller.signal });
    expect(received.stats.aborted).to.be.true;
    expect(received.stats.loops).to.be.within(2, 3);
    // The first pass as the file is; the later ones carry its clocks and counters on (replay-loop-continuity.test.ts).
    expect(received.bytes.subarray(0, bytes.length)).to.deep.equal(bytes);
    // About 1.3 s of the stream's rate, and no pause or burst where the file starts over.
    const expectedBytes = (1.3 * BITRATE) / 8;
    expect(received.bytes.length).to.be.closeTo(expectedBytes, 0.1 * expectedBytes);
    const gaps = received.chunks.slice(1).map((c, i) => c.receivedAt - received.chunks[i].receivedAt);
    expect(Math.max(...gaps)).to.be.below(40);
  });

  it('paces through a PCR wrap-around and over backward and forward PCR jumps', async () => {
    const wrapping = await streamFile({ durationSeconds: 1, initialPcr27MHz: (2 ** 33 - 45_000) * 300 });
    const backward = await streamFile({ durationSeconds: 1, faults: [parseFaultSpec('pcr-jump-backward@0.5')] });
    const forward = await streamFile({ durationSeconds: 1, faults: [parseFaultSpec('pcr-jump-forward@0.5')] });
    for (const file of [wrapping, backward, forward]) await expectPacedAtSpeed(file, 4);
  });

  it('counts send errors and goes on when nothing listens at the destination', async () => {
    const { path, bytes } = await streamFile({ durationSeconds: 0.5 });
    const closedPort = await freeUdpPort();
    const stats = await replayFile(path, `udp://${LOOPBACK}:${closedPort}`, { speed: 0 });
    expect(stats.sendErrors).to.be.above(0);
    expect(stats.datagrams + stats.sendErrors).to.equal(Math.ceil(bytes.length / 1316));
    expect(stats.bytes).to.equal(stats.packets * 188);
    expect(stats.bytes).to.be.below(bytes.length);
    expect(stats.lastSendError).to.match(/ECONNREFUSED/);
  });

  it('stops soon after its signal aborts, with the stats so far', async () => {
    const { path } = await streamFile({ durationSeconds: 3 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = performance.now();
    const received = await replayAndReceive(path, { signal: controller.signal });
    expect(performance.now() - started).to.be.below(600);
    expect(received.stats.aborted).to.be.true;
    expect(received.stats.datagrams).to.equal(received.chunks.length);
    // Paced: what went out is the stream's rate over the time it ran (from its first datagram: on a busy
    // machine the replay starts later than the timer), and it ran no longer than the 300 ms before the
    // abort and the pacing step in which it notices the abort.
    expect(received.stats.durationMs).to.be.at.most(350);
    const paced = (received.stats.durationMs / 1000) * (BITRATE / 8);
    expect(received.stats.bytes).to.be.closeTo(paced, 0.2 * paced + 2 * 1316);
  });

  it('refuses a file without PCR at a finite speed, and sends it at speed 0', async () => {
    const nullPackets = new Uint8Array(188 * 100);
    for (let p = 0; p < 100; p++) nullPackets.set([0x47, 0x1f, 0xff, 0x10], p * 188);
    const path = join(dir, 'null-packets.ts');
    await writeFile(path, nullPackets);
    const error = await rejectionOf(replayFile(path, `udp://${LOOPBACK}:9`));
    expect(error).to.be.instanceOf(AdapterError).and.to.have.property('code', 'ERR_NO_PCR');
    expect((error as AdapterError).message).to.match(/no PCR in the first 18800 bytes.*speed 0/);
    const received = await replayAndReceive(path, { speed: 0 });
    expect(received.bytes).to.deep.equal(nullPackets);
  });

  it('refuses what is not a transport stream, a bad destination and bad options before sending anything', async () => {
    const text = join(dir, 'notes.txt');
    await writeFile(text, 'not a transport stream\n'.repeat(100));
    const { path } = await streamFile({ durationSeconds: 0.2 });
    expect(await rejectionOf(replayFile(text, `udp://${LOOPBACK}:9`))).to.have.property('code', 'ERR_NOT_TRANSPORT_STREAM');
    expect(await rejectionOf(replayFile(join(dir, 'missing.ts'), `udp://${LOOPBACK}:9`))).to.have.property('code', 'ERR_FILE_NOT_FOUND');
    expect(await rejectionOf(replayFile(path, 'udp://:9'))).to.have.property('code', 'ERR_DESTINATION_URL_INVALID');
    expect(await rejectionOf(replayFile(path, `udp://${LOOPBACK}:9`, { speed: -1 }))).to.be.instanceOf(RangeError);
    expect(await rejectionOf(replayFile(path, `udp://${LOOPBACK}:9`, { packetsPerDatagram: 400 }))).to.be.instanceOf(RangeError);
  });
});
