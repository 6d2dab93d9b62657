/**
 * Runs a TypeScript script in a private network namespace (`unshare --net`):
 * only a loopback interface, up, with the multicast range routed to it. So a
 * test may send to multicast groups and no datagram can leave the machine
 * (DESIGN.md: tests that open multicast sockets run this way). Needs root,
 * or unprivileged user namespaces; tests call privateNetworkUnavailableReason
 * first and skip with its message.
 */
import { spawn } from 'node:child_process';
import { repoRoot } from './fixtures.js';
import { probeUnshare, type UnshareProbe } from './unshare-variant.js';

export interface PrivateNetworkRun {
  /** null when the script was killed (timeout). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** The namespace's network: loopback up, 224.0.0.0/4 routed to it; then the command given as arguments. */
const SETUP = 'ip link set lo up && ip route add 224.0.0.0/4 dev lo && exec "$@"';

/** tsx by absolute URL, as the CLI tests use it. */
const tsx = import.meta.resolve('tsx');

let probed: UnshareProbe | null = null;

function probe(): UnshareProbe {
  probed ??= probeUnshare(['--net'], ['sh', '-c', SETUP, 'sh', 'true'], 'private network namespace (needs root or user namespaces, and iproute2)');
  return probed;
}

/** Why a private network namespace cannot be made here (a message for `this.skip()`), or null when it can. */
export function privateNetworkUnavailableReason(): string | null {
  return probe().reason;
}

/**
 * Runs `node --conditions=source --import tsx SCRIPT ARGS...` from the
 * repository root in a fresh private network namespace; kills it after
 * `timeoutMs` (default 20 s). Throws when no namespace can be made.
 */
export function runInPrivateNetwork(script: string, args: readonly string[] = [], options: { timeoutMs?: number } = {}): Promise<PrivateNetworkRun> {
  const { variant, reason } = probe();
  if (variant === null) return Promise.reject(new Error(reason ?? 'no private network namespace'));
  const command = [...variant, 'sh', '-c', SETUP, 'sh', process.execPath, '--conditions=source', '--import', tsx, script, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', command, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 20_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr, timedOut });
    });
  });
}
