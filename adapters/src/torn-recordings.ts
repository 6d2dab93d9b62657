/**
 * Mends what a killed recorder left: every write is a whole number of
 * packets, but Linux may stop a large write of a killed process between two
 * pages (docs/recording.md), leaving a file that ends inside a packet. When a
 * recorder starts, such files in its folder are cut back to their last whole
 * packet. A file changed in the last few seconds is left alone: another
 * recorder may be writing it.
 */
import { readdir, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { TS_PACKET_SIZE } from '@klvscope/core';

/** A file modified this recently may be another process's file under way. */
const QUIET_MS = 5_000;

/** Cuts each `.ts` file of `folder` whose size is not whole packets back to whole packets; returns the paths mended. */
export async function trimTornRecordings(folder: string, nowMs: number = Date.now()): Promise<string[]> {
  const mended: string[] = [];
  for (const name of await readdir(folder)) {
    if (!name.endsWith('.ts')) continue;
    const path = join(folder, name);
    const info = await stat(path).catch(() => null);
    if (info === null || !info.isFile() || info.size % TS_PACKET_SIZE === 0 || nowMs - info.mtimeMs < QUIET_MS) continue;
    await truncate(path, info.size - (info.size % TS_PACKET_SIZE));
    mended.push(path);
  }
  return mended;
}
