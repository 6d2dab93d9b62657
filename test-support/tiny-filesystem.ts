/**
 * Runs a TypeScript script with a tiny filesystem of its own (issue 35, a
 * full disk): in a private mount namespace (`unshare --mount`), a tmpfs of
 * `sizeKb` is mounted over a fresh temporary folder, which the script gets
 * as its first argument. The mount is seen by that process alone and goes
 * with it; nothing else on the machine fills. Needs root (or user
 * namespaces); tests call tinyFilesystemUnavailableReason first and skip
 * with its message.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './fixtures.js';
import { probeUnshare, type UnshareProbe } from './unshare-variant.js';

const MOUNT = 'mount -t tmpfs -o "size=$1" tmpfs "$2" && shift 2 && exec "$@"';
const tsx = import.meta.resolve('tsx');

let probed: UnshareProbe | null = null;

function probe(): UnshareProbe {
  if (probed) return probed;
  const folder = mkdtempSync(join(tmpdir(), 'klvscope-tiny-fs-probe-'));
  try {
    probed = probeUnshare(['--mount'], ['sh', '-c', MOUNT, 'sh', '64k', folder, 'true'], 'private mount namespace with a tmpfs (needs root or user namespaces)');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return probed;
}

export function tinyFilesystemUnavailableReason(): string | null {
  return probe().reason;
}

/** Runs `node --conditions=source --import tsx SCRIPT FOLDER ARGS...` with FOLDER a tmpfs of `sizeKb`; resolves with its output. */
export function runOnTinyFilesystem(script: string, sizeKb: number, args: readonly string[] = [], timeoutMs = 60_000): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const { variant, reason } = probe();
  if (variant === null) return Promise.reject(new Error(reason ?? 'no private mount namespace'));
  const folder = mkdtempSync(join(tmpdir(), 'klvscope-tiny-fs-'));
  const command = [...variant, 'sh', '-c', MOUNT, 'sh', `${sizeKb}k`, folder, process.execPath, '--conditions=source', '--import', tsx, script, folder, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', command, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      rmSync(folder, { recursive: true, force: true });
      resolve({ exitCode, stdout, stderr });
    });
  });
}
