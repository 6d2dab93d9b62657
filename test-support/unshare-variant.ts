/**
 * Which way of making a namespace works here: `unshare` as root directly, or
 * inside a user namespace that maps us to root. Tried once per test process
 * by each helper that makes namespaces (private-network.ts, tiny-filesystem.ts).
 */
import { spawnSync } from 'node:child_process';

export interface UnshareProbe {
  /** The unshare options that worked, or null. */
  variant: readonly string[] | null;
  /** Why none worked (a message for `this.skip()`), or null. */
  reason: string | null;
}

/** Runs `unshare VARIANT... ARGS...` for each of `namespaces`' variants until one exits 0. */
export function probeUnshare(namespaces: readonly string[], args: readonly string[], what: string): UnshareProbe {
  const failures: string[] = [];
  for (const variant of [namespaces, ['--user', '--map-root-user', ...namespaces]]) {
    const result = spawnSync('unshare', [...variant, ...args], { encoding: 'utf8', timeout: 10_000 });
    if (result.status === 0) return { variant, reason: null };
    failures.push(`unshare ${variant.join(' ')}: ${result.error ? result.error.message : (result.stderr || `exit code ${result.status}`).trim()}`);
  }
  return { variant: null, reason: `no ${what}: ${failures.join('; ')}` };
}
