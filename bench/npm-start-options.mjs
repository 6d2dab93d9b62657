// What `npm start` runs the services with, read from package.json's "start" script, so that the
// soak and the flood bench measure the process a user starts and not a copy of its options that
// drifts: the environment assignments before `node` (glibc's allocator settings) and node's own
// options after it (`--v8-pool-size=0 --max-semi-space-size=4`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** { env, nodeOptions } of the repository's `npm start` command (its last `&&` step, the one that runs node). */
export function npmStartOptions(repo) {
  const script = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).scripts.start;
  const words = script.split('&&').at(-1).trim().split(/\s+/);
  const env = {};
  let at = 0;
  for (; words[at] !== 'node'; at++) {
    const [name, ...value] = words[at].split('=');
    if (value.length === 0) throw new Error(`package.json's start script: expected NAME=VALUE or node, got ${words[at]}`);
    env[name] = value.join('=');
  }
  const nodeOptions = [];
  for (at++; words[at]?.startsWith('--'); at++) nodeOptions.push(words[at]);
  return { env, nodeOptions };
}
