/**
 * Reads past the page cache (Linux O_DIRECT) for a recording too large to
 * stay cached: the disk writes straight into the reader's buffers, and the
 * kernel neither copies every page nor fills its cache with it (evicting
 * everything else there). On the 2-core bench VM a 20 GB recording read
 * through the page cache cost its reading threads 6 to 30 s of kernel time,
 * three quarters of it copying pages (`_copy_to_iter`); `dd iflag=direct`
 * reads it in about 0.6 s of kernel time (bench/README.md, 30 November 2026).
 *
 * O_DIRECT asks for aligned memory, file offsets and lengths. JavaScript
 * cannot know a buffer's address, so the buffers are views of one larger
 * allocation at the first offset where the kernel accepts a direct read
 * (tried with one small read each, at most 256); offsets and lengths are the
 * reader's to keep aligned (`DIRECT_READ_ALIGNMENT`).
 */
import { constants, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** File offsets and lengths of direct reads are multiples of this (the largest logical block size in use). */
export const DIRECT_READ_ALIGNMENT = 4096;

/** Memory from an allocator is aligned to at least this; the offsets tried step by it. */
const ALLOCATION_ALIGNMENT = 16;

export interface DirectReads {
  /** The file opened with O_DIRECT; the reader closes it. */
  readonly handle: FileHandle;
  /** `count` buffers of `size` bytes, at addresses the kernel accepts for direct reads. */
  readonly buffers: Uint8Array[];
}

/**
 * The file opened for direct reads with `count` buffers of `size` bytes (a
 * multiple of DIRECT_READ_ALIGNMENT), or null when direct reads cannot be had:
 * no O_DIRECT on this system, or a file system that refuses it (tmpfs) or
 * refuses every buffer offset, or a file shorter than one block (a buffer is
 * tried with a read of the file's first block, which must be whole). The
 * caller then reads through the page cache.
 */
export async function openForDirectReads(path: string, fileSize: number, count: number, size: number, sharedMemory: boolean): Promise<DirectReads | null> {
  if (constants.O_DIRECT === undefined || fileSize < DIRECT_READ_ALIGNMENT || size % DIRECT_READ_ALIGNMENT !== 0) return null;
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_DIRECT);
  } catch {
    return null;
  }
  const bytes = count * size + DIRECT_READ_ALIGNMENT;
  const memory = sharedMemory ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
  const start = alignedStart(handle.fd, memory);
  if (start < 0) {
    await handle.close();
    return null;
  }
  return { handle, buffers: Array.from({ length: count }, (_, index) => new Uint8Array(memory, start + index * size, size)) };
}

/** The first offset into `memory` at which a direct read of the file's first block succeeds, or -1. */
function alignedStart(fd: number, memory: ArrayBufferLike): number {
  for (let start = 0; start < DIRECT_READ_ALIGNMENT; start += ALLOCATION_ALIGNMENT) {
    try {
      readSync(fd, new Uint8Array(memory, start, DIRECT_READ_ALIGNMENT), 0, DIRECT_READ_ALIGNMENT, 0);
      return start;
    } catch (error) {
      // EINVAL: this address is not aligned for the device; any other error: no direct reads.
      if ((error as NodeJS.ErrnoException).code !== 'EINVAL') return -1;
    }
  }
  return -1;
}
