/** The processes of a name that this test process started (an ffmpeg transcoder), read from /proc. */
import { readdirSync, readFileSync } from 'node:fs';

export function childProcessesNamed(name: string): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid ...
      const match = /^\d+ \((.*)\) \S+ (\d+)/.exec(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (match && match[1] === name && Number(match[2]) === process.pid) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}
