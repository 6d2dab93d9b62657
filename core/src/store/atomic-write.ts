/**
 * Replaces a file so that a crash at any moment leaves either the old or the
 * new content, never a mix: write a temporary file beside it, fsync it,
 * rename it over the target (atomic on POSIX), fsync the folder so the
 * rename itself survives a power cut.
 */
import { open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isProcessAlive } from './process-alive.js';

let temporaryCounter = 0;

/** `<path>.tmp-<pid>-<n>`: the pid tells a later process whether the writer is gone. */
export function temporaryPathFor(path: string): string {
  temporaryCounter += 1;
  return `${path}.tmp-${process.pid}-${temporaryCounter}`;
}

export interface AtomicWriteOptions {
  /** The file's permission bits, exactly (whatever the umask); default 0o666 less the umask. */
  mode?: number;
}

export async function writeFileAtomic(path: string, content: Uint8Array | string, options: AtomicWriteOptions = {}): Promise<void> {
  const temporary = temporaryPathFor(path);
  try {
    const handle = await open(temporary, 'wx', options.mode);
    try {
      if (options.mode !== undefined) await handle.chmod(options.mode);
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
}

async function syncDirectory(directory: string): Promise<void> {
  // Windows cannot open a folder for fsync; its rename is durable enough there.
  if (process.platform === 'win32') return;
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Removes the temporary files a killed writer left beside `path`; returns their names. */
export async function removeOrphanedTemporaries(path: string): Promise<string[]> {
  const prefix = `${basename(path)}.tmp-`;
  const removed: string[] = [];
  for (const name of await readdir(dirname(path))) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    // A live writer (this process included) may be about to rename its file.
    if (isProcessAlive(pid)) continue;
    await rm(join(dirname(path), name), { force: true });
    removed.push(name);
  }
  return removed;
}
