// The source of `npm run bench:stream`, in a process of its own (stream-load.mjs forks it): the
// adapters' replay sends argv[2] (a transport stream file) to argv[3] (a UDP URL) paced by its PCR
// for argv[4] seconds, then reports its stats and the CPU the replay took (user + system), the
// baseline the module's CPU is compared with.
import { epochNow, replayFile } from '../adapters/dist/index.js';

const [file, destination, secondsText] = process.argv.slice(2);
const cpuBefore = process.cpuUsage();
const startedAt = epochNow();
const stats = await replayFile(file, destination, { signal: AbortSignal.timeout(Number(secondsText) * 1000) });
const cpu = process.cpuUsage(cpuBefore);
process.send({ type: 'done', stats, startedAt, endedAt: epochNow(), cpuSeconds: (cpu.user + cpu.system) / 1e6 }, () => process.disconnect());
