/**
 * A budget for a channel's recordings: a station that records around the
 * clock (20 Mb/s is 9 GB an hour) fills its disk within days, and then the
 * recorder, the live sessions and the store all fail for want of space. Past
 * the budget, the channel's oldest files are deleted, one at a time, until
 * its files fit. Only this channel's files (`<channel>_….ts` in its folder)
 * are counted and deleted, and never the file being written.
 */
import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { recordingChannelPrefix } from './recording-file-name.js';

export interface RetentionResult {
  /** The files deleted, oldest first. */
  deleted: string[];
  /** The channel's bytes in the folder afterwards, the file being written included. */
  keptBytes: number;
}

/**
 * Deletes the oldest of `channelName`'s recordings in `folder` while they hold more than `keepBytes`.
 * Oldest by last change (a file is last changed when it is closed, so in recording order, whatever
 * its mission part); `current` (the file being written) is counted but never deleted. A file that
 * cannot be read or deleted (gone meanwhile, not ours to delete) is skipped.
 */
export async function applyRecordingRetention(folder: string, channelName: string, keepBytes: number, current: string | null): Promise<RetentionResult> {
  const prefix = recordingChannelPrefix(channelName);
  const files: { path: string; bytes: number; changedAt: number }[] = [];
  for (const name of await readdir(folder)) {
    if (!name.startsWith(prefix) || !name.endsWith('.ts')) continue;
    const path = join(folder, name);
    const info = await stat(path).catch(() => null);
    if (info?.isFile() === true) files.push({ path, bytes: info.size, changedAt: info.mtimeMs });
  }
  let keptBytes = files.reduce((sum, file) => sum + file.bytes, 0);
  const deleted: string[] = [];
  const oldestFirst = files.filter((file) => file.path !== current).sort((a, b) => a.changedAt - b.changedAt || a.path.localeCompare(b.path));
  for (const file of oldestFirst) {
    if (keptBytes <= keepBytes) break;
    if ((await unlink(file.path).then(() => true).catch(() => false)) === false) continue;
    keptBytes -= file.bytes;
    deleted.push(file.path);
  }
  return { deleted, keptBytes };
}
