/** Runs a TypeScript script of this folder in a real child process (through tsx), for lock and crash tests. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** tsx by absolute URL, as gateway/test/cli/run-cli.ts does. */
const tsx = import.meta.resolve('tsx');

export interface NodeChild {
  process: ChildProcessWithoutNullStreams;
  /** The next line the child prints on stdout (rejects if it exits first). */
  nextLine(): Promise<string>;
  /** Kills with SIGKILL and waits until the child is reaped (a zombie would still look alive to kill(pid, 0)). */
  kill(): Promise<void>;
  /** Waits for the exit code. */
  exited(): Promise<number | null>;
}

export function startChild(script: string, args: string[]): NodeChild {
  const path = fileURLToPath(new URL(`./children/${script}`, import.meta.url));
  const child = spawn(process.execPath, ['--conditions=source', '--import', tsx, path, ...args]);
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    process: child,
    async nextLine() {
      const next = await lines.next();
      if (next.done === true) throw new Error(`child ${script} ended without a line (exit ${String(await exit)}): ${stderr}`);
      return next.value;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exit;
    },
    exited: () => exit,
  };
}
