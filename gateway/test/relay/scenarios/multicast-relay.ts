/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- JSON answers are read loosely: the test checks their values */
/**
 * Runs inside a private network namespace (test-support/private-network.ts):
 * a relay channel from a multicast group to two outputs, one multicast and
 * one unicast, fed by the replay of FIXTURE; then a generated CBR stream for
 * the bitrate readings. Prints one JSON line with what came out, what detect
 * said, what inspect says of the same file, and the channel's states and log
 * messages; the test compares them.
 *
 * Arguments: FIXTURE.
 */
import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replayFile } from '@klvscope/adapters';
import { createGenerator } from '@klvscope/core';
import { inspectFile } from '../../../src/cli/inspect-command.js';
import { eventually, sleep, startTestRelay } from '../relay-test-server.js';

const [fixture] = process.argv.slice(2);
const folder = mkdtempSync(join(tmpdir(), 'klvscope-relay-multicast-'));
const CBR_BITRATE = 4_000_000;

async function receiver(group: string | null, port: number): Promise<{ chunks: Buffer[]; socket: Socket }> {
  const socket = createSocket({ type: 'udp4', reuseAddr: true });
  const chunks: Buffer[] = [];
  socket.on('message', (message) => chunks.push(message));
  await new Promise<void>((resolve) => socket.bind(port, group ?? '127.0.0.1', resolve));
  if (group !== null) socket.addMembership(group, '127.0.0.1');
  return { chunks, socket };
}

const { server, client } = await startTestRelay(folder, { noSignalMs: 1000 });
try {
  const multicastOut = await receiver('239.20.0.2', 6102);
  const unicastOut = await receiver(null, 6103);
  await client.request('POST', '/platforms', {
    id: 'uav',
    name: 'UAV',
    channels: [{ channelId: 'eo', name: 'EO', input: 'udp://239.20.0.1:6101?interface=127.0.0.1', outputs: ['udp://239.20.0.2:6102?ttl=1&interface=127.0.0.1', 'udp://127.0.0.1:6103'] }],
  });
  await client.request('POST', '/platforms/uav/command?command=start');
  const channelState = async (): Promise<string> => (await client.get('/platforms/uav')).body.channels[0].state as string;

  // The fixture, in real time, while detect listens for 4 s of it.
  const replay = replayFile(fixture, 'udp://239.20.0.1:6101?interface=127.0.0.1');
  await sleep(1000);
  const detect = (await client.request('POST', '/channels/command', { channelId: 'eo', command: 'detect', durationMs: 4000 })).body;
  const replayStats = await replay;
  await sleep(300);
  const sent = readFileSync(fixture);
  const outputs = [multicastOut, unicastOut].map(({ chunks }) => {
    const received = Buffer.concat(chunks);
    return { datagrams: chunks.length, bytes: received.length, equal: received.equals(sent) };
  });

  // Silence: the channel turns to no-signal; the CBR stream brings it back.
  await eventually(async () => ((await channelState()) === 'no-signal' ? true : undefined), 5000, 'no-signal');
  const stateWhenSilent = await channelState();
  const cbrFile = join(folder, 'cbr.ts');
  const generator = createGenerator({ durationSeconds: 6, bitrate: CBR_BITRATE, packetSize: 188, audio: false, seed: 7, faults: [], klv: { carriage: 'sync', rateHz: 30 } });
  writeFileSync(cbrFile, Buffer.concat([...generator.chunks()]));
  await client.request('POST', '/clearBitrateArray', { channelId: 'eo' });
  const cbrStarted = Date.now();
  const cbr = await replayFile(cbrFile, 'udp://239.20.0.1:6101?interface=127.0.0.1');
  const stateAfterRecovery = await channelState();
  const [bitrates] = (await client.get('/bitrates?channelId=eo')).body;
  // Whole seconds inside the replay: the first and last readings straddle its ends.
  const readings = (bitrates.history as Array<{ time: string; inputBitrate: number; outputBitrate: number }>).filter((r) => Date.parse(r.time) > cbrStarted + 1100 && Date.parse(r.time) < cbrStarted + cbr.durationMs - 100);
  const logs = (await client.get('/logMessages?_sort=id')).body as Array<{ type: string; message: string }>;
  const detectionInfo = (await client.get('/streamDetectionInfo?channelId=eo')).body;
  const inspected = await inspectFile(fixture);
  multicastOut.socket.close();
  unicastOut.socket.close();
  process.stdout.write(
    `${JSON.stringify({
      fileBytes: sent.length,
      replay: replayStats,
      outputs,
      detect,
      detectionInfo,
      inspect: { programs: inspected.programs, pids: inspected.pids.map((p) => ({ pid: p.pid, role: p.role, streamType: p.streamType, streamTypeName: p.streamTypeName })), klv: inspected.klv.map((k) => ({ pid: k.pid, carriage: k.carriage, standards: k.standards })) },
      stateWhenSilent,
      stateAfterRecovery,
      cbr: { bitrate: CBR_BITRATE, replayBitrate: (cbr.bytes * 8 * 1000) / cbr.durationMs, readings, pids: bitrates.pids },
      logs,
    })}\n`,
  );
} finally {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
}
