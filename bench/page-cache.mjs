// The page cache and the disk, for section 5 of `npm run bench` (issue 34: a recording that is not
// in the page cache is inspected at the disk's own rate). GNU dd and util-linux's fincore, as on
// Debian; no root needed: `iflag=nocache` asks the kernel to drop the file's cached pages
// (posix_fadvise DONTNEED), which it does for pages no one has dirty or mapped.
import { spawnSync } from 'node:child_process';

function run(command, args) {
  const child = spawnSync(command, args, { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${child.stderr || child.error}`);
  return child;
}

/** Drops the file's pages from the page cache; returns how many bytes of it stay cached (fincore). */
export function dropFromPageCache(file) {
  run('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
  const [cached] = run('fincore', ['--bytes', '--noheadings', '--output', 'RES', file]).stdout.trim().split(/\s+/);
  return Number(cached);
}

/** Milliseconds `dd iflag=direct bs=4M` takes to read the whole file past the page cache: the disk's own rate. */
export function readPastThePageCache(file) {
  const start = process.hrtime.bigint();
  run('dd', [`if=${file}`, 'of=/dev/null', 'bs=4M', 'iflag=direct', 'status=none']);
  return Number(process.hrtime.bigint() - start) / 1e6;
}
