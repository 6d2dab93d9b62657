// The three services of `npm run bench:hostile` in a process of their own (so that the RSS and
// descriptors the bench reads from /proc are theirs, not the attackers'): the inspection
// service, the streaming module (its built-in demo as the source) and the relay, on 127.0.0.1 at
// free ports over fresh folders in the data folder given as argv[2], with their default connection limits.
// Prints one JSON line with their URLs and keys, then runs until SIGTERM.
import { mkdirSync } from 'node:fs';
import { startInspectionServer } from '../gateway/src/inspection/inspection-server.ts';
import { startRelayServer } from '../gateway/src/relay/start-relay-server.ts';
import { startStreamingServer } from '../gateway/src/streaming/start-streaming-server.ts';

const dataDir = process.argv[2];
const folder = (name) => {
  mkdirSync(`${dataDir}/${name}`, { recursive: true });
  return `${dataDir}/${name}`;
};
const key = 'hostile-bench-key-0123456789abcdef';
const inspection = await startInspectionServer({ port: 0, env: {}, apiKey: key, log: { level: 'silent' }, dataDir: folder('inspection') });
const streaming = await startStreamingServer({ port: 0, env: {}, onExit: () => undefined, dataDir: folder('streaming') });
const relay = await startRelayServer({ port: 0, env: {}, apiKey: key, dataDir: folder('relay') });
process.stdout.write(`${JSON.stringify({ inspection: inspection.url, streaming: streaming.url, relay: relay.url, key })}\n`);
process.once('SIGTERM', async () => {
  await Promise.allSettled([inspection.close(), streaming.close(), relay.close()]);
  process.exit(0);
});
