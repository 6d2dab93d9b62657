/**
 * Multicast end to end, run by multicast.test.ts inside a private network
 * namespace (test-support/private-network.ts): receivers on an any-source
 * group and on a source-specific group, and a second source-specific
 * receiver naming another sender, while `replayFile` sends a generated
 * stream to both groups. Prints one JSON object on stdout.
 *
 * It refuses to run where any interface other than loopback exists, so no
 * datagram of it can ever reach a real network.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTransportStream } from '@klvscope/core';
import { openUdpSource, replayFile, type LiveSourceStats, type UdpSource } from '../../src/index.js';

const interfaces = Object.keys(networkInterfaces());
if (interfaces.some((name) => name !== 'lo')) {
  process.stderr.write(`refusing to send multicast: interfaces ${interfaces.join(', ')} (run me through runInPrivateNetwork)\n`);
  process.exit(3);
}

const ANY_SOURCE_GROUP = 'udp://239.255.42.1:5500';
const SSM_GROUP = 'udp://232.1.2.3:5502';
const SENDER = '127.0.0.1';

interface Reception {
  bytes: number;
  sameBytesAsFile: boolean;
  stats: LiveSourceStats;
}

function receive(source: UdpSource): () => Promise<Buffer> {
  const parts: Uint8Array[] = [];
  const done = (async () => {
    for await (const chunk of source) parts.push(chunk.bytes);
  })();
  return async () => {
    await source.close();
    await done;
    return Buffer.concat(parts);
  };
}

const dir = await mkdtemp(join(tmpdir(), 'klvscope-multicast-'));
try {
  const { bytes } = generateTransportStream({ durationSeconds: 0.6, bitrate: 2_000_000 });
  const file = join(dir, 'stream.ts');
  await writeFile(file, bytes);

  const anySource = await openUdpSource(`${ANY_SOURCE_GROUP}?interface=${SENDER}`);
  const sourceSpecific = await openUdpSource(`udp://${SENDER}@232.1.2.3:5502`);
  const otherSender = await openUdpSource('udp://127.0.0.2@232.1.2.3:5502');
  const received = [anySource, sourceSpecific, otherSender].map(receive);

  // The sender's interface address is its source address, which the source-specific receivers filter on.
  const replays = await Promise.all([
    replayFile(file, `${ANY_SOURCE_GROUP}?interface=${SENDER}`, { speed: 4 }),
    replayFile(file, `${SSM_GROUP}?interface=${SENDER}&ttl=0`, { speed: 4, rtp: true }),
  ]);
  await new Promise((resolve) => setTimeout(resolve, 100));

  const sources = [anySource, sourceSpecific, otherSender];
  const [anyBytes, ssmBytes, otherBytes] = await Promise.all(received.map((finish) => finish()));
  const reception = (index: number, got: Buffer): Reception => ({ bytes: got.length, sameBytesAsFile: got.equals(bytes), stats: sources[index].stats() });
  const result = {
    interfaces,
    fileBytes: bytes.length,
    replays,
    anySource: reception(0, anyBytes),
    sourceSpecific: reception(1, ssmBytes),
    otherSender: reception(2, otherBytes),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
