import { expect } from 'chai';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { encodeSt0601, generateTransportStream } from '@klvscope/core';
import { openPtyPair, socatAvailable, type PtyPair } from '../../../test-support/pty-pair.js';
import { statisticsLine } from '../../src/cli/live-statistics-line.js';
import type { LiveSessionState } from '../../src/live/live-records.js';
import { startTestServer, type TestServer } from '../inspection/test-server.js';
import { connectLiveClient, type LiveClient } from './live-client.js';

const TS_PACKET_BYTES = 188;

/** ST 0601 packet i whose mission id is all 'G' (0x47, the TS sync byte), far enough from its end to pass for a TS packet. */
function packetFullOfSyncBytes(i: number): Uint8Array {
  return encodeSt0601([
    { tag: 2, value: 1_700_000_000_000_000 + i * 33_333 },
    { tag: 3, value: 'G'.repeat(120) },
    { tag: 10, value: `PLATFORM-${i}`.padEnd(120, 'X') },
    { tag: 65, value: 19 },
  ]);
}

/** Packets per PID of whole 188-byte packets, as the statistics should count them. */
function packetsByPid(bytes: Uint8Array): Map<number, number> {
  const counts = new Map<number, number>();
  for (let p = 0; p + TS_PACKET_BYTES <= bytes.length; p += TS_PACKET_BYTES) {
    const pid = ((bytes[p + 1] & 0x1f) << 8) | bytes[p + 2];
    counts.set(pid, (counts.get(pid) ?? 0) + 1);
  }
  return counts;
}

describe('live sessions on a serial source, over a real pseudo-terminal pair (socat)', function () {
  this.timeout(30_000);
  let server: TestServer;
  let client: LiveClient;
  let pty: PtyPair;
  let writer: FileHandle | null = null;

  before(async function () {
    if (!socatAvailable()) {
      console.log('      skipped: socat is not installed (apt-get install socat), so no pty pair can be made');
      this.skip();
    }
    server = await startTestServer();
  });

  after(async () => {
    await server?.close();
  });

  beforeEach(async () => {
    pty = await openPtyPair();
    client = await connectLiveClient(server.port, server.key);
  });

  afterEach(async () => {
    // Stops what a test left running (409 when it stopped it itself).
    await server.call('/sessions/active', { method: 'DELETE' });
    await writer?.close();
    writer = null;
    await client.close();
    await pty.close();
  });

  const start = async (source: string): Promise<LiveSessionState> => {
    const started = await server.call('/sessions/live', { method: 'POST', body: { source } });
    expect(started.status, started.text).to.equal(201);
    return started.json as LiveSessionState;
  };

  /** Writes to the other end of the pair, as a capture device would. */
  const send = async (bytes: Uint8Array): Promise<void> => {
    writer ??= await open(pty.b, constants.O_WRONLY | constants.O_NOCTTY);
    await writer.write(bytes);
  };

  it('records a session on an upper-case SERIAL: URL as a serial source in the recent sources', async () => {
    const url = `SERIAL://${pty.a}?baud=9600`;
    const started = await start(url);
    expect(started).to.include({ source: url, format: 'klv' });
    const recent = (await server.call('/sources/recent')).json as { sources: Array<{ kind: string; source: string }> };
    expect(recent.sources.filter((s) => s.source === url).map((s) => s.kind)).to.deep.equal(['serial']);
  });

  it('reports no per-PID TS statistics for a KLV source, though its KLV values hold TS sync bytes', async () => {
    const packets = Array.from({ length: 20 }, (_, i) => packetFullOfSyncBytes(i));
    const started = await start(`serial://${pty.a}?format=klv`);
    await send(Buffer.concat(packets));
    const ofSession = () => client.statistics.filter((s) => s.sessionId === started.sessionId);
    await client.until(() => client.metadata.filter((m) => m.sessionId === started.sessionId).length === packets.length, 10_000, 'every metadata packet');
    // The reading that counts the KLV packets covers the chunks that brought them.
    await client.until(() => ofSession().some((s) => s.klvPacketsPerSecond > 0), 5_000, 'a reading with KLV packets');
    // What the line delivered is still measured: the readings' byte rates add up to every byte sent.
    const sent = packets.reduce((n, p) => n + p.length, 0);
    await client.until(() => Math.round(ofSession().reduce((n, s) => n + s.bytesPerSecond * s.seconds, 0)) === sent, 5_000, 'every byte in a reading');
    const final = (await server.call('/sessions/active', { method: 'DELETE' })).json as LiveSessionState;
    expect(final.counts.metadataPackets).to.equal(packets.length);
    expect(ofSession().map((s) => [s.packetsPerSecond, s.bitsPerSecond, s.pids])).to.deep.equal(ofSession().map(() => [0, 0, []]));
    // klvscope watch --statistics shows that rate, not the TS bit rate (0 here).
    const reading = ofSession().find((s) => s.klvPacketsPerSecond > 0 && s.bytesPerSecond > 0);
    expect(reading).to.not.equal(undefined);
    const line = statisticsLine(reading!);
    expect(line).to.include(`${((reading!.bytesPerSecond * 8) / 1e6).toFixed(2)} Mb/s  0 TS packets/s  0 PIDs  ${Math.round(reading!.klvPacketsPerSecond)} KLV packets/s`);
  });

  it('still reports per-PID statistics for a TS source on the same kind of line', async () => {
    const { bytes: stream } = generateTransportStream({ durationSeconds: 1, bitrate: 1_000_000, seed: 5 });
    const bytes = stream.subarray(0, 200 * TS_PACKET_BYTES);
    const started = await start(`serial://${pty.a}?format=ts`);
    await send(bytes);
    const counted = () => client.statistics.filter((s) => s.sessionId === started.sessionId).flatMap((s) => s.pids);
    // The framer holds the last packet until the next sync byte or the end: it comes with the stop.
    await client.until(() => counted().reduce((n, pid) => n + pid.packets, 0) === 199, 10_000, '199 packets metered');
    await server.call('/sessions/active', { method: 'DELETE' });
    await client.until(() => counted().reduce((n, pid) => n + pid.packets, 0) === 200, 5_000, 'the last packet metered');
    const byPid = new Map<number, number>();
    for (const { pid, packets } of counted()) byPid.set(pid, (byPid.get(pid) ?? 0) + packets);
    expect([...byPid].sort(([a], [b]) => a - b)).to.deep.equal([...packetsByPid(bytes)].sort(([a], [b]) => a - b));
    expect([...byPid.keys()]).to.include.members([0, 0x100]);
  });
});
