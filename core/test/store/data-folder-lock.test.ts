import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DataFolderLock, type LockHolder } from '../../src/store/data-folder-lock.js';
import { StoreError } from '../../src/store/store-error.js';
import { startChild } from './node-child.js';
import { useTemporaryFolder } from './temporary-folder.js';

interface TryResult {
  opened?: true;
  code?: string;
  message?: string;
}

describe('DataFolderLock', () => {
  const folder = useTemporaryFolder('klvscope-lock-');
  const lockPath = (): string => join(folder.path, 'klvscope.lock');

  it('writes its pid and start time into <dataDir>/klvscope.lock and removes the file on release', async () => {
    const lock = await DataFolderLock.acquire(folder.path);
    const stored = JSON.parse(await readFile(lockPath(), 'utf8')) as LockHolder;
    expect(stored).to.deep.equal({ pid: process.pid, startedAt: lock.holder.startedAt, hostname: hostname() });
    expect(Date.parse(stored.startedAt)).to.be.closeTo(Date.now(), 5000);
    await lock.release();
    expect(existsSync(lockPath())).to.be.false;
    await (await DataFolderLock.acquire(folder.path)).release();
  });

  it('refuses a second lock in the same process, naming the folder and this pid', async () => {
    const lock = await DataFolderLock.acquire(folder.path);
    const error = await DataFolderLock.acquire(folder.path).catch((e: unknown) => e);
    await lock.release();
    expect(error).to.be.instanceOf(StoreError).with.property('code', 'ERR_STORE_LOCKED');
    expect((error as StoreError).message).to.equal(
      `data folder ${folder.path} is in use by this process (pid ${process.pid}) since ${lock.holder.startedAt}; stop it or choose another data folder (lock file ${lockPath()})`,
    );
  });

  it('refuses this process while another process holds the folder, naming that pid', async () => {
    const holder = startChild('store-holder.ts', ['hold', folder.path]);
    try {
      const { pid } = JSON.parse(await holder.nextLine()) as { pid: number };
      const error = await DataFolderLock.acquire(folder.path).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(StoreError).with.property('code', 'ERR_STORE_LOCKED');
      expect((error as StoreError).message).to.contain(`data folder ${folder.path} is in use by another klvscope process (pid ${pid})`);
      expect((error as StoreError).details).to.include({ dataDir: folder.path, pid });
    } finally {
      await holder.kill();
    }
  });

  it('refuses another process while this one holds the folder, and lets it in after release', async () => {
    const lock = await DataFolderLock.acquire(folder.path);
    const refused = startChild('store-holder.ts', ['try', folder.path]);
    const result = JSON.parse(await refused.nextLine()) as TryResult;
    expect(result.code).to.equal('ERR_STORE_LOCKED');
    expect(result.message).to.contain(`data folder ${folder.path} is in use by another klvscope process (pid ${process.pid})`);
    await lock.release();
    const admitted = startChild('store-holder.ts', ['try', folder.path]);
    expect(JSON.parse(await admitted.nextLine())).to.deep.equal({ opened: true });
    expect(await admitted.exited()).to.equal(0);
  });

  it('takes over the lock of a process that was killed', async () => {
    const holder = startChild('store-holder.ts', ['hold', folder.path]);
    const { pid } = JSON.parse(await holder.nextLine()) as { pid: number };
    await holder.kill();
    expect((JSON.parse(await readFile(lockPath(), 'utf8')) as LockHolder).pid).to.equal(pid);
    const lock = await DataFolderLock.acquire(folder.path);
    expect((JSON.parse(await readFile(lockPath(), 'utf8')) as LockHolder).pid).to.equal(process.pid);
    await lock.release();
  });

  it('takes over a lock naming a pid that no longer exists', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(lockPath(), JSON.stringify({ pid: gone, startedAt: '2024-01-01T00:00:00.000Z', hostname: hostname() }));
    const lock = await DataFolderLock.acquire(folder.path);
    expect(lock.holder.pid).to.equal(process.pid);
    await lock.release();
  });

  it('lets exactly one of several simultaneous takeovers of a stale lock win', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(lockPath(), JSON.stringify({ pid: gone, startedAt: '2024-01-01T00:00:00.000Z', hostname: hostname() }));
    const attempts = await Promise.allSettled([1, 2, 3, 4].map(() => DataFolderLock.acquire(folder.path)));
    const winners = attempts.filter((a) => a.status === 'fulfilled');
    expect(winners).to.have.length(1);
    expect(attempts.filter((a) => a.status === 'rejected').map((a) => (a.reason as StoreError).code)).to.deep.equal(['ERR_STORE_LOCKED', 'ERR_STORE_LOCKED', 'ERR_STORE_LOCKED']);
    await winners[0].value.release();
  });

  it('refuses a lock held on another machine, whose pid it cannot check', async () => {
    await writeFile(lockPath(), JSON.stringify({ pid: 1, startedAt: '2024-01-01T00:00:00.000Z', hostname: 'elsewhere.example' }));
    const error = await DataFolderLock.acquire(folder.path).catch((e: unknown) => e);
    expect((error as StoreError).message).to.contain('in use by another klvscope process (pid 1 on elsewhere.example)');
  });

  it('refuses an unreadable lock file while it is young, and takes it over once it is old', async () => {
    await writeFile(lockPath(), '');
    const error = await DataFolderLock.acquire(folder.path).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(StoreError).with.property('code', 'ERR_STORE_LOCKED');
    expect((error as StoreError).message).to.contain('is locked by a process that is still starting');
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(lockPath(), minuteAgo, minuteAgo);
    await (await DataFolderLock.acquire(folder.path)).release();
  });

  it('leaves alone a lock file that another holder has taken since', async () => {
    const lock = await DataFolderLock.acquire(folder.path);
    const other = JSON.stringify({ pid: process.pid, startedAt: '2030-01-01T00:00:00.000Z', hostname: hostname() });
    await writeFile(lockPath(), other);
    await lock.release();
    expect(await readFile(lockPath(), 'utf8')).to.equal(other);
  });
});
