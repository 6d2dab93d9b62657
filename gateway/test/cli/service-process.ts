/** A `klvscope` service command (serve, stream) run from the TypeScript sources in a child process, for tests of its start and stop. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../../test-support/fixtures.js';

const tsx = import.meta.resolve('tsx');

export interface ServiceProcess {
  child: ChildProcess;
  /** The base URL the banner names. */
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `klvscope ARGS` and resolves once its banner has `url` (the first group of `urlPattern`) and `readyText`. */
export function startService(args: string[], urlPattern: RegExp, readyText: string, env: NodeJS.ProcessEnv = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', tsx, join(repoRoot, 'gateway/src/cli/main.ts'), ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = urlPattern.exec(stdout)?.[1];
      if (url && stdout.includes(readyText)) resolve({ child, url, stdout: () => stdout, stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`klvscope ${args[0]} exited with ${code} before its banner: ${stderr}`)));
  });
}
