/**
 * The machines of a fleet test as processes in network namespaces of their
 * own (DESIGN.md "The fleet"), each joined to the test's namespace by a veth
 * pair: host N is 10.77.N.2, its side of the test's namespace 10.77.N.1. Run
 * only inside a private network namespace (private-network.ts), so these
 * addresses exist nowhere else; needs root (ip link).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

export interface NamespacedHost {
  readonly index: number;
  /** The host's own address. */
  readonly address: string;
  /** The address by which the host reaches the test's namespace (where the database listens). */
  readonly gateway: string;
  readonly process: ChildProcess;
}

/**
 * Starts `command args…` as host `index` (1 to 250) in a new network
 * namespace: it waits there until its end of the veth pair arrives, brings
 * it and its loopback up, and then execs the command (the pid stays the
 * host's, so a signal to it reaches the command).
 */
export function startNamespacedHost(index: number, command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; multicast?: boolean } = {}): NamespacedHost {
  const inside = `h${index}`;
  const outside = `v${index}`;
  const address = `10.77.${index}.2`;
  const gateway = `10.77.${index}.1`;
  const setup = [
    `i=0; until ip link show ${inside} >/dev/null 2>&1; do i=$((i+1)); [ $i -gt 200 ] && exit 97; sleep 0.02; done`,
    'ip link set lo up',
    `ip addr add ${address}/24 dev ${inside}`,
    `ip link set ${inside} up`,
    // Feeds of the host's own network: its multicast groups go over its loopback, and never leave it.
    ...(options.multicast ? ['ip route add 224.0.0.0/4 dev lo'] : []),
    'exec "$@"',
  ].join(' && ');
  const child = spawn('unshare', ['--net', 'sh', '-c', setup, 'sh', command, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: options.env, cwd: options.cwd });
  const pid = child.pid;
  if (pid === undefined) throw new Error('unshare did not start');
  execFileSync('ip', ['link', 'add', outside, 'type', 'veth', 'peer', 'name', inside]);
  execFileSync('ip', ['link', 'set', inside, 'netns', String(pid)]);
  execFileSync('ip', ['addr', 'add', `${gateway}/24`, 'dev', outside]);
  execFileSync('ip', ['link', 'set', outside, 'up']);
  return { index, address, gateway, process: child };
}

/** Removes host `index`'s veth pair (gone by itself when its namespace's last process has ended). */
export function removeHostLink(index: number): void {
  try {
    execFileSync('ip', ['link', 'del', `v${index}`], { stdio: 'ignore' });
  } catch {
    // Already gone with its namespace.
  }
}

/** Starts `command args…` inside host `host`'s network namespace (nsenter; needs root): another process of the same machine. */
export function startInHost(host: NamespacedHost, command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): ChildProcess {
  return spawn('nsenter', [`--net=/proc/${host.process.pid}/ns/net`, command, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: options.env, cwd: options.cwd });
}
