/**
 * A recorder in a process of its own, for the tests that kill it or fill its
 * disk (recorder.test.ts). Argument: JSON of ChildConfig. It records the
 * generated stream given by `stream` in chunks of 1 to 1500 bytes (packets
 * split), as fast as the recorder's queue allows, and prints one JSON line
 * per event: {"event":"started"}, {"event":"state",...}, {"event":"done",...}.
 */
import { cp } from 'node:fs/promises';
import { setImmediate as tick } from 'node:timers/promises';
import { seededRandom } from '../../test-support/random.js';
import { TsRecorder } from '../src/recorder.js';
import { childStream, type ChildConfig } from './recorder-child-config.js';

const QUEUE_HIGH_WATER = 512 * 1024;
const say = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2]) as ChildConfig;
  const bytes = childStream(config);
  const recorder = new TsRecorder({ folder: config.folder, channelName: 'child', missionName: () => 'kill-test', rotateBytes: config.rotateBytes });
  recorder.onStateChange = (status) => say({ event: 'state', status });
  const started = await recorder.start();
  if (started.state !== 'running') throw new Error(`recorder did not start: ${started.reason}`);
  say({ event: 'started' });
  const random = seededRandom(config.stream.seed);
  let writesAfterFailure = 0;
  let sinceTick = 0;
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(random() * 1500);
    recorder.write(bytes.subarray(at, at + size));
    if (recorder.status().state === 'failed') writesAfterFailure++;
    at += size;
    sinceTick += size;
    // Let the writer run; a disk slower than the loop is waited for, as a real feed's pace would.
    if (sinceTick >= 256 * 1024) {
      sinceTick = 0;
      await tick();
      while (recorder.stats().queuedBytes > QUEUE_HIGH_WATER) await tick();
    }
  }
  const stopped = await recorder.stop();
  if (config.copyTo) await cp(config.folder, config.copyTo, { recursive: true });
  say({ event: 'done', stopped, stats: recorder.stats(), writesAfterFailure });
}

await main();
