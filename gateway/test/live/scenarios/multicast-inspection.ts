/**
 * Runs inside a private network namespace (test-support/private-network.ts):
 * a live session on a multicast group, fed by the replay (plain, then
 * RTP-wrapped, then source-specific) or by ffmpeg. Prints one JSON line
 * with what the tRPC client received and what the same checks find in the
 * file that was sent; the test compares them.
 *
 * Arguments: `replay FILE` or `ffmpeg FIXTURE`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIVE_SOURCE_CHECK_ID } from '../../../src/live/live-records.js';
import { startTestServer } from '../../inspection/test-server.js';
import { fileFindings, findingKey, kindCounts, sortedKeys, type LiveOutcome as Outcome } from '../live-client.js';
import { inspectLive } from '../live-inspection.js';

const [mode, file] = process.argv.slice(2);
const folder = mkdtempSync(join(tmpdir(), 'klvscope-multicast-'));
const server = await startTestServer();
const outcomes: Outcome[] = [];
try {
  if (mode === 'replay') {
    const cases = [
      { name: 'multicast', source: 'udp://239.255.42.1:5501', destination: 'udp://239.255.42.1:5501', rtp: false },
      { name: 'multicast RTP', source: 'udp://239.255.42.1:5502', destination: 'udp://239.255.42.1:5502', rtp: true },
      { name: 'source-specific multicast', source: 'udp://127.0.0.1@232.1.42.1:5503', destination: 'udp://232.1.42.1:5503?interface=127.0.0.1', rtp: false },
    ];
    for (const { name, source, destination, rtp } of cases) {
      const live = await inspectLive(server, { source, destination, file, rtp, speed: 8 });
      outcomes.push(await outcome(name, live, file));
      await live.client.close();
    }
  } else if (mode === 'ffmpeg') {
    // The tee muxer writes the same bytes to the group and to a file: the file is what was sent.
    const sent = join(folder, 'sent.ts');
    const tee = `[f=mpegts]udp://239.255.42.2:5504?pkt_size=1316|[f=mpegts]${sent}`;
    const live = await inspectLive(server, {
      source: 'udp://239.255.42.2:5504',
      destination: '',
      file: sent,
      send: () => run('ffmpeg', ['-v', 'error', '-re', '-i', file, '-map', '0', '-c', 'copy', '-f', 'tee', tee]),
    });
    outcomes.push(await outcome('ffmpeg', live, sent));
    await live.client.close();
  } else {
    throw new Error(`unknown mode '${mode}'`);
  }
  process.stdout.write(`${JSON.stringify(outcomes)}\n`);
} finally {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
}

async function outcome(name: string, live: Awaited<ReturnType<typeof inspectLive>>, sentFile: string): Promise<Outcome> {
  const findings = live.client.findings.filter((finding) => finding.sessionId === live.final.sessionId);
  const ofChecks = findings.filter((f) => f.checkId !== LIVE_SOURCE_CHECK_ID);
  const file = await fileFindings(sentFile);
  return {
    name,
    live: sortedKeys(ofChecks.map((f) => findingKey(f.checkId, f))),
    file: sortedKeys(file),
    liveKinds: kindCounts(ofChecks.map((f) => ({ ...findingKey(f.checkId, f), count: f.count }))),
    fileKinds: kindCounts(file),
    sourceFindings: findings.filter((f) => f.checkId === LIVE_SOURCE_CHECK_ID).map((f) => `${f.type}: ${f.message}`),
    metadataPackets: live.client.metadata.filter((packet) => packet.sessionId === live.final.sessionId).length,
    statistics: live.client.statistics.filter((reading) => reading.sessionId === live.final.sessionId).length,
    bytes: live.final.received.bytes,
  };
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${stderr}`))));
  });
}
