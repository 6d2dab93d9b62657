// `npm run bench:relay`: the channel relay under 8 channels of 20 Mb/s for RELAY_SECONDS (default
// 30), inside a private network namespace made for the run (unshare --net: loopback only,
// 224.0.0.0/4 routed to it, so no datagram leaves the machine). Needs root (or user namespaces)
// and iproute2.
//
// `klvscope relay` (the built bundle) runs 8 channels, each from a multicast group to a unicast
// port of this process. This process sends 1316-byte datagrams (7 TS packets) to each group,
// paced to 20 Mb/s, each carrying its sequence number and its send time (the adapters' epochNow),
// and receives the relayed ones. Printed: datagrams lost (target 0), the relay's CPU (target under
// 40 % of a core) and peak RSS, and the latency from send to receipt of a relayed datagram (target
// p99 under 2 ms), beside the baseline: the same measurement for a 9th stream sent straight to a
// socket of this process, so what the relay adds is the difference. Send and receipt are both in
// this process: the figures include its own delays, the baseline shows how much.
//
// Since issue 32 each channel runs with alarms on (a minimum, a maximum and a maximum silence for
// the input and for its PID) and the per-PID accounting (packets and continuity errors), and a
// console's feed (GET /api/events) is followed for the whole run: its bytes a second are printed.
import { spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { epochNow } from '../adapters/dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.RELAY_SECONDS ?? 30);
const CHANNELS = Number(process.env.RELAY_CHANNELS ?? 8);
const BITRATE = Number(process.env.RELAY_BITRATE ?? 20_000_000);
const WARMUP_MS = 2000;
const DATAGRAM_BYTES = 7 * 188;
const INSIDE = 'KLVSCOPE_BENCH_PRIVATE_NETWORK';
const KEY = 'bench-relay-key-0123456789abcdef';
/** RELAY_ALARMS=0: the run without alarm limits and without a console's feed, to compare with on the same machine. */
const ALARMS = process.env.RELAY_ALARMS !== '0';

if (process.env[INSIDE] !== '1') {
  const setup = 'ip link set lo up && ip route add 224.0.0.0/4 dev lo && exec "$@"';
  const run = spawnSync('unshare', ['--net', 'sh', '-c', setup, 'sh', process.execPath, fileURLToPath(import.meta.url)], { stdio: 'inherit', env: { ...process.env, [INSIDE]: '1' } });
  if (run.error || run.status === null) console.error(`bench:relay: cannot make a private network namespace (root and iproute2 needed): ${run.error?.message ?? run.signal}`);
  process.exit(run.status ?? 1);
}

if (process.argv[2] === 'send') await runSender(JSON.parse(process.argv[3]));

const work = mkdtempSync(join(tmpdir(), 'klvscope-relay-bench-'));
const relay = spawn(process.execPath, [join(here, '..', 'gateway', 'bin', 'klvscope.cjs'), 'relay', '--data-dir', join(work, 'data'), '--port', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, KLVSCOPE_API_KEY: KEY },
});
const exited = new Promise((resolve) => relay.once('exit', resolve));
try {
  const base = await new Promise((resolve, reject) => {
    createInterface({ input: relay.stdout }).once('line', (line) => {
      const url = /on (http:\/\/\S+)\s/.exec(line)?.[1];
      if (url) resolve(url);
      else reject(new Error(`unexpected first line from klvscope relay: ${line}`));
    });
    relay.once('exit', (code) => reject(new Error(`klvscope relay exited with ${code}`)));
  });
  const call = async (method, path, body) => {
    const response = await fetch(`${base}${path}`, { method, headers: body === undefined ? { 'x-api-key': KEY } : { 'x-api-key': KEY, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };

  // Receivers: one per channel, and the baseline's.
  const streams = [];
  for (let i = 0; i <= CHANNELS; i++) {
    const socket = createSocket('udp4');
    await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
    socket.setRecvBufferSize(8 * 1024 * 1024);
    const stream = { index: i, socket, port: socket.address().port, sent: 0, received: 0, latencies: [], measured: false };
    socket.on('message', (message) => {
      const now = epochNow();
      stream.received++;
      if (stream.measured) stream.latencies.push(now - message.readDoubleBE(12));
    });
    streams.push(stream);
  }
  const relayed = streams.slice(0, CHANNELS);
  const baseline = streams[CHANNELS];
  const groups = relayed.map((_, i) => ({ host: `239.40.0.${i + 1}`, port: 7001 + i }));
  await call('POST', '/platforms', {
    id: 'bench',
    name: 'bench',
    channels: relayed.map((s, i) => ({
      channelId: `ch${i + 1}`,
      name: `channel ${i + 1}`,
      input: `udp://${groups[i].host}:${groups[i].port}?interface=127.0.0.1`,
      outputs: [`udp://127.0.0.1:${s.port}`],
      // Limits the stream meets: judged every second, none raised (an alarm raised would be reported below).
      alarms: ALARMS ? { minBitrate: BITRATE * 0.5, maxBitrate: BITRATE * 1.5, maxSilenceMs: 2000, pids: [{ pid: 0x100, minBitrate: BITRATE * 0.5, maxBitrate: BITRATE * 1.5 }] } : {},
    })),
  });
  await call('POST', '/platforms/bench/command?command=start');
  // A console follows the feed for the whole run.
  const feed = new AbortController();
  let feedBytes = 0;
  const feedStartedAt = performance.now();
  const feedDone = (ALARMS ? fetch(`${base}/events`, { signal: feed.signal }) : Promise.resolve({ body: [] }))
    .then(async (response) => {
      for await (const chunk of response.body) feedBytes += chunk.length;
    })
    .catch(() => undefined);

  // The sender runs in a process of its own, so that sending and receiving do not delay each other.
  const targets = streams.map((s) => (s === baseline ? { host: '127.0.0.1', port: baseline.port } : groups[s.index]));
  const sendStarted = epochNow();
  const senderProcess = spawn(process.execPath, [fileURLToPath(import.meta.url), 'send', JSON.stringify({ targets, totalMs: WARMUP_MS + SECONDS * 1000 })], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
  const senderOutput = new Promise((resolve) => {
    let text = '';
    senderProcess.stdout.on('data', (chunk) => (text += chunk));
    senderProcess.once('exit', () => resolve(JSON.parse(text)));
  });
  await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
  for (const s of streams) s.measured = true;
  const cpuStart = cpuTicks(relay.pid);
  const cpuStartedAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, (SECONDS * 1000) / 2));
  const [readings] = await call('GET', '/bitrates?channelId=ch1');
  const alarmsRaised = (await call('GET', '/logMessages?type=alarm&_limit=1000')).length;
  const { sent: sentCounts, sendErrors } = await senderOutput;
  relayed.forEach((s, i) => (s.sent = sentCounts[i]));
  baseline.sent = sentCounts[CHANNELS];
  void sendStarted;
  const cpu = (cpuTicks(relay.pid) - cpuStart) / clockTicks() / ((performance.now() - cpuStartedAt) / 1000);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const peakRssMiB = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${relay.pid}/status`, 'utf8'))[1]) / 1024;
  const sent = relayed.reduce((n, s) => n + s.sent, 0);
  const lost = relayed.reduce((n, s) => n + (s.sent - s.received), 0);
  const all = relayed.flatMap((s) => s.latencies).sort((a, b) => a - b);
  const direct = baseline.latencies.sort((a, b) => a - b);
  const q = (list, p) => list[Math.min(list.length - 1, Math.floor(p * list.length))];
  const ms = (v) => `${v.toFixed(3)} ms`;
  console.log(`bench:relay: ${CHANNELS} channels x ${(BITRATE / 1e6).toFixed(0)} Mb/s for ${SECONDS} s (after ${WARMUP_MS / 1000} s warm-up), datagrams of ${DATAGRAM_BYTES} bytes, alarms and a console's feed ${ALARMS ? 'on' : 'off'}; load average ${loadavg()[0].toFixed(1)}`);
  console.log(`  datagrams sent     ${sent} (${sendErrors} refused by the sender's system)`);
  console.log(`  datagrams lost     ${lost}  (target 0)`);
  console.log(`  relay CPU          ${(cpu * 100).toFixed(1)} % of a core  (target < 40 %)`);
  console.log(`  relay peak RSS     ${peakRssMiB.toFixed(1)} MiB`);
  console.log(`  latency relayed    p50 ${ms(q(all, 0.5))}  p99 ${ms(q(all, 0.99))}  p99.9 ${ms(q(all, 0.999))}  max ${ms(all.at(-1))}  (${all.length} datagrams)`);
  console.log(`  latency baseline   p50 ${ms(q(direct, 0.5))}  p99 ${ms(q(direct, 0.99))}  p99.9 ${ms(q(direct, 0.999))}  max ${ms(direct.at(-1))}  (straight to a socket, no relay)`);
  console.log(`  relay adds         p50 ${ms(q(all, 0.5) - q(direct, 0.5))}  p99 ${ms(q(all, 0.99) - q(direct, 0.99))}  (target p99 < 2 ms)`);
  console.log(`  channel 1 reading  mid-run: input ${(readings.inputBitrate / 1e6).toFixed(2)} Mb/s, output ${(readings.outputBitrate / 1e6).toFixed(2)} Mb/s, ${readings.pids.length} PID(s), alarms raised by mid-run ${alarmsRaised}`);
  feed.abort();
  await feedDone;
  if (ALARMS) console.log(`  console feed       ${Math.round((feedBytes * 1000) / (performance.now() - feedStartedAt))} bytes a second (GET /api/events, ${CHANNELS} channels relaying)`);
  for (const s of streams) s.socket.close();
} finally {
  relay.kill('SIGTERM');
  await exited;
  rmSync(work, { recursive: true, force: true });
}

/** utime + stime of a process, in clock ticks (/proc/PID/stat fields 14 and 15). */
function cpuTicks(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function clockTicks() {
  return Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
}

/** The sender: every 2 ms, what is due on each target by now; prints the counts sent when done. */
async function runSender({ targets, totalMs }) {
  const sender = createSocket('udp4');
  await new Promise((resolve) => sender.bind(0, '127.0.0.1', resolve));
  sender.setMulticastInterface('127.0.0.1');
  sender.setMulticastTTL(0);
  sender.setSendBufferSize(8 * 1024 * 1024);
  let sendErrors = 0;
  sender.on('error', () => sendErrors++);
  const template = Buffer.alloc(DATAGRAM_BYTES, 0xff);
  for (let p = 0; p < 7; p++) template.set([0x47, 0x01, 0x00, 0x10], p * 188);
  const perMs = BITRATE / 8 / DATAGRAM_BYTES / 1000;
  const sent = targets.map(() => 0);
  const started = performance.now();
  await new Promise((resolve) => {
    const timer = setInterval(() => {
      const elapsed = Math.min(performance.now() - started, totalMs);
      const due = Math.floor(elapsed * perMs);
      targets.forEach((target, i) => {
        while (sent[i] < due) {
          const datagram = Buffer.from(template);
          datagram.writeUInt32BE(sent[i], 4);
          datagram.writeDoubleBE(epochNow(), 12);
          sent[i]++;
          sender.send(datagram, target.port, target.host);
        }
      });
      if (elapsed >= totalMs) {
        clearInterval(timer);
        resolve();
      }
    }, 2);
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  sender.close();
  process.stdout.write(JSON.stringify({ sent, sendErrors }));
  process.exit(0);
}
