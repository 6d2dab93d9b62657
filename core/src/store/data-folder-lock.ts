/**
 * One process per data folder. Two processes each holding the catalog in
 * memory would overwrite each other's saves, so the second is refused: the
 * lock is `<dataDir>/klvscope.lock`, created exclusively ('wx'), holding the
 * holder's pid, start time and host. A lock whose pid is gone (a crash,
 * SIGKILL) is stale and taken over.
 */
import { hostname } from 'node:os';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { diskFullError } from './disk-full-error.js';
import { isProcessAlive } from './process-alive.js';
import { StoreError } from './store-error.js';

export const LOCK_FILE_NAME = 'klvscope.lock';

/** A lock file so young may still be between its creation and its content. */
const UNREADABLE_LOCK_GRACE_MS = 10_000;

export interface LockHolder {
  pid: number;
  /** ISO 8601 time at which the holder took the lock. */
  startedAt: string;
  hostname: string;
}

export class DataFolderLock {
  #released = false;

  private constructor(
    readonly dataDir: string,
    readonly path: string,
    readonly holder: LockHolder,
  ) {}

  /** Takes the lock of `dataDir` (which must exist), or throws ERR_STORE_LOCKED naming the holder. */
  static async acquire(dataDir: string): Promise<DataFolderLock> {
    const path = join(dataDir, LOCK_FILE_NAME);
    const holder: LockHolder = { pid: process.pid, startedAt: new Date().toISOString(), hostname: hostname() };
    // A few rounds: each lost race with another process taking over a stale lock costs one.
    for (let round = 0; round < 5; round += 1) {
      if (await tryCreate(path, holder)) return new DataFolderLock(dataDir, path, holder);
      const current = await readHolder(path);
      if (current === 'missing') continue; // released meanwhile
      if (!(await isStale(path, current))) throw lockedError(dataDir, path, current);
      await takeOverStale(path);
    }
    throw lockedError(dataDir, path, 'unreadable');
  }

  /** Removes the lock file if it is still this lock's. */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    const current = await readHolder(this.path);
    if (typeof current === 'object' && current.pid === this.holder.pid && current.startedAt === this.holder.startedAt) {
      await rm(this.path, { force: true });
    }
  }
}

async function tryCreate(path: string, holder: LockHolder): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(`${JSON.stringify(holder)}\n`);
    await handle.sync();
  } catch (error) {
    // An empty lock left behind (a full disk) would refuse every process as "still starting" once there is space again.
    await handle.close();
    await rm(path, { force: true });
    throw diskFullError(error, dirname(path), 'the lock of the data folder could not be written; nothing was changed, and it can be taken once there is space', { path }) ?? error;
  }
  await handle.close();
  return true;
}

async function readHolder(path: string): Promise<LockHolder | 'missing' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (typeof parsed.pid === 'number' && typeof parsed.startedAt === 'string') {
      return { pid: parsed.pid, startedAt: parsed.startedAt, hostname: parsed.hostname ?? '' };
    }
  } catch {
    // falls through: a crash between creating and writing the file
  }
  return 'unreadable';
}

/** A pid can only be checked on its own machine: a lock from another host is held until removed by hand. */
function isHeld(holder: LockHolder): boolean {
  return holder.hostname !== hostname() || isProcessAlive(holder.pid);
}

/** An unreadable lock is stale once old enough: a young one may still be between its creation and its content. */
async function isStale(path: string, holder: LockHolder | 'unreadable'): Promise<boolean> {
  if (holder !== 'unreadable') return !isHeld(holder);
  try {
    return Date.now() - (await stat(path)).mtimeMs >= UNREADABLE_LOCK_GRACE_MS;
  } catch {
    return true;
  }
}

/**
 * Removes a stale lock file, holding the takeover file (`<lock>.takeover`,
 * created exclusively) while it does: only one process at a time judges and
 * removes a stale lock, so none removes a lock another has just taken. The
 * caller then races for the free lock with an exclusive create, which only
 * one wins. A takeover file left by a crash is itself removed once old.
 */
async function takeOverStale(path: string): Promise<void> {
  const mutex = `${path}.takeover`;
  let handle;
  try {
    handle = await open(mutex, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (await isStale(mutex, 'unreadable')) await rm(mutex, { force: true });
    return;
  }
  await handle.close();
  try {
    // Judged again under the takeover file: another process may have taken the lock over since.
    const current = await readHolder(path);
    if (current !== 'missing' && (await isStale(path, current))) await rm(path, { force: true });
  } finally {
    await rm(mutex, { force: true });
  }
}

function lockedError(dataDir: string, path: string, holder: LockHolder | 'unreadable'): StoreError {
  if (holder === 'unreadable') {
    return new StoreError('ERR_STORE_LOCKED', `data folder ${dataDir} is locked by a process that is still starting (lock file ${path}); try again, or delete the lock file if no klvscope uses this folder`, {
      dataDir,
      lockFile: path,
    });
  }
  const who = holder.pid === process.pid && holder.hostname === hostname() ? `this process (pid ${holder.pid})` : `another klvscope process (pid ${holder.pid}${holder.hostname === hostname() ? '' : ` on ${holder.hostname}`})`;
  return new StoreError(
    'ERR_STORE_LOCKED',
    `data folder ${dataDir} is in use by ${who} since ${holder.startedAt}; stop it or choose another data folder (lock file ${path})`,
    { dataDir, lockFile: path, pid: holder.pid, startedAt: holder.startedAt, hostname: holder.hostname },
  );
}
