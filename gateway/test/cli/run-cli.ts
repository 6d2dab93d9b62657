/** Runs the real `klvscope` CLI (TypeScript sources through tsx) in a child process. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../../test-support/fixtures.js';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** tsx by absolute URL, so the CLI also runs from folders that have no node_modules (a plugin project). */
const tsx = import.meta.resolve('tsx');

export function runCli(args: string[], cwd = repoRoot): CliResult {
  const main = join(repoRoot, 'gateway/src/cli/main.ts');
  const result = spawnSync(process.execPath, ['--conditions=source', '--import', tsx, main, ...args], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
