/**
 * What POST /system/file-check says of a recorded-file path already confined
 * to the browse roots: whether it exists, is a regular file, can be read,
 * its size and time, and whether its first bytes are MPEG-TS packets. Cheap
 * on purpose (one stat, one open, one read of at most SNIFF_BYTES), so a UI
 * can check a path as it is typed. `problem` is the error the analysis
 * endpoints would answer for the same file, or null when they would start.
 */
import { constants, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { detectPacketLayout, type PacketSize } from '@klvscope/core';

/** Bytes read to find packets: 5 syncs in a row lock a size (204 * 5 = 1020), with room for leading junk. */
export const SNIFF_BYTES = 8 * 1024;

export type FileProblemCode = 'ERR_FILE_NOT_FOUND' | 'ERR_NOT_A_FILE' | 'ERR_FILE_UNREADABLE' | 'ERR_NOT_TRANSPORT_STREAM';

export interface RecordedFileCheck {
  /** The path as resolved (links followed). */
  path: string;
  exists: boolean;
  isFile: boolean;
  readable: boolean;
  size: number | null;
  modifiedAt: string | null;
  /** 188 (TS), 192 (M2TS) or 204 (TS with Reed-Solomon bytes), from the first bytes; null when none found. */
  packetSize: PacketSize | null;
  isTransportStream: boolean;
  problem: { code: FileProblemCode; message: string } | null;
}

// No link is followed at open (the path is resolved already); a FIFO swapped in meanwhile cannot block the open.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export async function checkRecordedFile(path: string): Promise<RecordedFileCheck> {
  const verdict: RecordedFileCheck = { path, exists: false, isFile: false, readable: false, size: null, modifiedAt: null, packetSize: null, isTransportStream: false, problem: null };
  const fail = (code: FileProblemCode, message: string): RecordedFileCheck => ({ ...verdict, problem: { code, message } });
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return fail('ERR_FILE_NOT_FOUND', `nothing at ${path}`);
    return fail('ERR_FILE_UNREADABLE', `${path} cannot be examined (${code ?? 'error'})`);
  }
  verdict.exists = true;
  verdict.modifiedAt = info.mtime.toISOString();
  if (!info.isFile()) return fail('ERR_NOT_A_FILE', `${path} is not a regular file`);
  verdict.isFile = true;
  verdict.size = info.size;
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    return fail('ERR_FILE_UNREADABLE', `${path} cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const opened = await handle.stat();
    // What was opened is what is described: a file replaced between stat and open is judged as found.
    if (!opened.isFile()) return fail('ERR_NOT_A_FILE', `${path} is not a regular file`);
    verdict.size = opened.size;
    verdict.modifiedAt = opened.mtime.toISOString();
    const buffer = new Uint8Array(Math.min(SNIFF_BYTES, opened.size));
    const { bytesRead } = buffer.length === 0 ? { bytesRead: 0 } : await handle.read(buffer, 0, buffer.length, 0);
    verdict.readable = true;
    // When the whole file was read, fewer syncs than a lock needs prove a packet size (a short file).
    const layout = detectPacketLayout(buffer, 0, bytesRead, bytesRead >= opened.size);
    verdict.packetSize = layout?.size ?? null;
    verdict.isTransportStream = layout !== null;
    if (layout === null) return fail('ERR_NOT_TRANSPORT_STREAM', `${path}: no MPEG-TS packets of 188, 192 or 204 bytes in its first ${SNIFF_BYTES} bytes`);
    return verdict;
  } catch (error) {
    return fail('ERR_FILE_UNREADABLE', `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  } finally {
    await handle.close();
  }
}
