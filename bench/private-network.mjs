// The benchmarks that send multicast (bench:live, bench:stream) run inside a private network
// namespace made for the run (unshare --net: loopback up, 224.0.0.0/4 routed to it), so that no
// datagram leaves the machine. Needs root (or user namespaces) and iproute2.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const INSIDE = 'KLVSCOPE_BENCH_PRIVATE_NETWORK';

/**
 * Outside the namespace: runs the script at `scriptUrl` again inside one and exits with its exit
 * code (never returns). Inside: returns at once.
 */
export function runInsidePrivateNetwork(scriptUrl, name) {
  if (process.env[INSIDE] === '1') return;
  const setup = 'ip link set lo up && ip route add 224.0.0.0/4 dev lo && exec "$@"';
  const run = spawnSync('unshare', ['--net', 'sh', '-c', setup, 'sh', process.execPath, fileURLToPath(scriptUrl)], { stdio: 'inherit', env: { ...process.env, [INSIDE]: '1' } });
  if (run.error || run.status === null) console.error(`${name}: cannot make a private network namespace (root and iproute2 needed): ${run.error?.message ?? run.signal}`);
  process.exit(run.status ?? 1);
}
