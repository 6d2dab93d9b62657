// `npm run bench:live`: a live session under a 100 Mb/s multicast feed, inside a private network
// namespace made for the run (unshare --net: loopback only, 224.0.0.0/4 routed to it, so no
// datagram leaves the machine). Needs root (or user namespaces) and iproute2.
//
// `klvscope serve` (the built bundle) runs a live session on a multicast group; `klvscope replay
// --loop` sends a generated 100 Mb/s stream with a fault injected every 250 ms to the group for
// LIVE_SECONDS (default 30); a tRPC WebSocket client in this process subscribes to the findings.
// Printed: the rate achieved, application-level loss (target 0) and the socket's drops, CPU use of
// the service and of the replay, and the latency from a datagram's arrival at the service to the
// finding it revealed reaching the client (target p99 < 50 ms). Arrival and receipt are both read
// with the adapters' epochNow (milliseconds since the epoch, kept within a millisecond of the
// system clock) in two processes on one machine: the comparison is good to about a millisecond.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTRPCClient, createWSClient, wsLink } from '@trpc/client';
import WebSocket from 'ws';
import { epochNow } from '../adapters/dist/index.js';
import { generateTransportStream, parseFaultSpec } from '../core/dist/index.js';
import { startService } from './service-child.mjs';
import { runInsidePrivateNetwork } from './private-network.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.LIVE_SECONDS ?? 30);
const BITRATE = Number(process.env.LIVE_BITRATE ?? 100_000_000);
const GROUP = 'udp://239.255.77.1:6000';

runInsidePrivateNetwork(import.meta.url, 'bench:live');

const work = mkdtempSync(join(tmpdir(), 'klvscope-live-bench-'));
const klvscope = join(here, '..', 'gateway', 'bin', 'klvscope.cjs');
const children = [];
try {
  // Ten seconds at the target rate, looped: a continuity error every 250 ms, plus what each loop's restart causes.
  const loopSeconds = 10;
  const faults = Array.from({ length: loopSeconds * 4 }, (_, i) => parseFaultSpec(`drop-packet@${i / 4 + 0.1}`));
  const file = join(work, 'feed.ts');
  writeFileSync(file, generateTransportStream({ durationSeconds: loopSeconds, bitrate: BITRATE, seed: 3, klv: { carriage: 'sync' }, faults }).bytes);

  const dataDir = join(work, 'data');
  // The service's log (its licence notice) is kept out of the report.
  const { server, base, key, call } = await startService(dataDir);
  children.push(server);

  const latencies = [];
  const wsClient = createWSClient({ url: `${base.replace(/^http/, 'ws')}/live`, WebSocket, connectionParams: { apiKey: key } });
  const trpc = createTRPCClient({ links: [wsLink({ client: wsClient })] });
  const subscription = trpc.findings.subscribe(
    { checkIds: ['mpegts-errors'] },
    {
      onData: ({ data }) => {
        const now = epochNow();
        if (data.receivedAt !== null) latencies.push(now - data.receivedAt);
      },
      onError: (error) => console.error(`bench:live: subscription: ${error.message}`),
    },
  );
  await trpc.activeSession.query();

  await call('POST', '/sessions/live', { source: GROUP });
  const serverCpuStart = cpuSeconds(server.pid);
  const replay = spawn(process.execPath, [klvscope, 'replay', file, `${GROUP}?interface=127.0.0.1`, '--loop'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(replay);
  let replayOutput = '';
  replay.stdout.on('data', (chunk) => (replayOutput += chunk.toString()));
  replay.stderr.resume();
  const startedAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const replayCpu = cpuSeconds(replay.pid);
  replay.kill('SIGINT');
  await new Promise((resolve) => replay.once('exit', resolve));
  const elapsed = (performance.now() - startedAt) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const serverCpu = cpuSeconds(server.pid) - serverCpuStart;
  const final = await call('DELETE', '/sessions/active');
  subscription.unsubscribe();
  await wsClient.close();

  const received = final.received;
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  console.log(`klvscope live — ${(BITRATE / 1e6).toFixed(0)} Mb/s multicast replay for ${elapsed.toFixed(1)} s, node ${process.version}, private network namespace`);
  console.log(`  received      ${received.chunks.toLocaleString('en-US')} datagrams, ${(received.bytes / 1e6).toFixed(1)} MB = ${((received.bytes * 8) / elapsed / 1e6).toFixed(1)} Mb/s`);
  console.log(`  loss          application ${received.applicationLoss}, socket drops ${received.socketDrops}, continuity errors ${final.statistics?.continuityErrors ?? 'n/a'} (injected: ${faults.length} per ${loopSeconds} s loop, plus loop restarts)`);
  console.log(`  cpu           service ${((serverCpu / elapsed) * 100).toFixed(0)} % of a core, replay ${((replayCpu / elapsed) * 100).toFixed(0)} %`);
  console.log(`  findings      ${final.counts.findings} in the session, ${latencies.length} mpegts-errors received by the tRPC client`);
  console.log(`  latency       arrival -> tRPC client: p50 ${at(0.5).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms, max ${sorted.at(-1)?.toFixed(2) ?? 'n/a'} ms`);
  console.log(`  replay        ${replayOutput.trim().split(/[\r\n]+/).at(-1) ?? ''}`);
  if (received.applicationLoss > 0 || !(at(0.99) < 50)) process.exitCode = 1;
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)));
  rmSync(work, { recursive: true, force: true });
}

/** User plus system CPU seconds of a process so far (/proc/PID/stat, clock ticks of 1/100 s). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
