/**
 * A full disk on demand (issue 35): a ballast file fills the filesystem of
 * a folder (a tmpfs of its own, tiny-filesystem.ts) to within `leaveBytes`;
 * deleting it is "space returns".
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DiskBallast {
  path: string;
  bytes: number;
  /** Space returns. */
  remove(): void;
}

export function fillDisk(folder: string, leaveBytes = 0): DiskBallast {
  const path = join(folder, 'ballast');
  let bytes = 0;
  for (let chunk = 64 * 1024; chunk >= 1024; chunk /= 2) {
    try {
      for (;;) {
        writeFileSync(path, Buffer.alloc(chunk), { flag: 'a' });
        bytes += chunk;
      }
    } catch {
      // This chunk no longer fits: a smaller one, so the disk is full to within a kilobyte.
    }
  }
  if (leaveBytes > 0) {
    rmSync(path);
    bytes = Math.max(0, bytes - leaveBytes);
    writeFileSync(path, Buffer.alloc(bytes));
  }
  return { path, bytes, remove: () => rmSync(path, { force: true }) };
}
