/**
 * Runs a TypeScript script in a private network namespace (`unshare --net`):
 * only a loopback interface, up, with the multicast range routed to it. So a
 * test may send to multicast groups and no datagram can leave the machine
 * (DESIGN.md: tests that open multicast sockets run this way). Needs root,
 * or unprivileged user namespaces; tests call privateNetworkUnavailableReason
 * first and skip with its message.
 */
import { spawn, spawnSync } from 'node:child_process';
import { repoRoot } from './fixtures.js';

export interface PrivateNetworkRun {
  /** null when the script was killed (timeout). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** The namespace's network: loopback up, 224.0.0.0/4 routed to it; then the command given as arguments. */
const SETUP = 'ip link set lo up && ip route add 224.0.0.0/4 dev lo && exec "$@"';

/** unshare arguments that give a network namespace: as root directly, else inside a user namespace that maps us to root. */
const UNSHARE_VARIANTS: readonly (readonly string[])[] = [['--net'], ['--user', '--map-root-user', '--net']];

/** tsx by absolute URL, as the CLI tests use it. */
const tsx = import.meta.resolve('tsx');

let probed: { variant: readonly string[] | null; reason: string | null } | null = null;

function probe(): { variant: readonly string[] | null; reason: string | null } {
  if (probed) return probed;
  const failures: string[] = [];
  for (const variant of UNSHARE_VARIANTS) {
    const result = spawnSync('unshare', [...variant, 'sh', '-c', SETUP, 'sh', 'true'], { encoding: 'utf8', timeout: 10_000 });
    if (result.status === 0) return (probed = { variant, reason: null });
    const why = result.error ? result.error.message : (result.stderr || `exit code ${result.status}`).trim();
    failures.push(`unshare ${variant.join(' ')}: ${why}`);
  }
  return (probed = { variant: null, reason: `no private network namespace (needs root or user namespaces, and iproute2): ${failures.join('; ')}` });
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
