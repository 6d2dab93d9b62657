/**
 * A real pseudo-terminal pair made with socat: what is written to one end
 * is read from the other, through the kernel's tty layer, as from a serial
 * line. Each pair lives in its own temporary directory.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PtyPair {
  /** The two ends, as symbolic links to /dev/pts/N. */
  a: string;
  b: string;
  /** Stops socat (both ends go away) and removes the directory. */
  close(): Promise<void>;
}

export function socatAvailable(): boolean {
  return spawnSync('socat', ['-V'], { stdio: 'ignore' }).status === 0;
}

const READY_TIMEOUT_MS = 3000;

export async function openPtyPair(): Promise<PtyPair> {
  const dir = await mkdtemp(join(tmpdir(), 'klvscope-serial-'));
  const a = join(dir, 'a');
  const b = join(dir, 'b');
  const socat = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  socat.stderr.setEncoding('utf8').on('data', (text: string) => (log += text));
  const exited = new Promise<void>((resolve) => socat.once('exit', () => resolve()));
  const close = async (): Promise<void> => {
    if (socat.exitCode === null && socat.signalCode === null) socat.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  // Ready once both links exist and socat says it is copying.
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(existsSync(a) && existsSync(b) && log.includes('starting data transfer loop'))) {
    if (socat.exitCode !== null || Date.now() > deadline) {
      await close();
      throw new Error(`socat did not make a pty pair within ${READY_TIMEOUT_MS} ms: ${log.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { a, b, close };
}
