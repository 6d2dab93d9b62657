/**
 * A file's identity is the SHA-256 of its content (not its name or path), so
 * a renamed or copied recording finds its cached stages and ingest runs.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

/** Large reads: hashing a multi-gigabyte recording is bound by I/O calls, not by SHA-256. */
const READ_CHUNK_BYTES = 1024 * 1024;

export interface FileHashOptions {
  /** Called after each chunk with the bytes hashed so far and the file's size at the start. */
  onProgress?: (bytesDone: number, totalBytes: number) => void;
  /** Stops the read; the promise then rejects with the signal's AbortError (code 'ABORT_ERR'). */
  signal?: AbortSignal;
}

/** Hashes a file's content; the SHA-256 digest in lower-case hex. */
export type FileHasher = (path: string, options?: FileHashOptions) => Promise<string>;

export const hashFile: FileHasher = async (path, options = {}) => {
  const { onProgress, signal } = options;
  signal?.throwIfAborted();
  const totalBytes = (await stat(path)).size;
  const hash = createHash('sha256');
  let bytesDone = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: READ_CHUNK_BYTES, signal })) {
    hash.update(chunk as Buffer);
    bytesDone += (chunk as Buffer).length;
    onProgress?.(bytesDone, totalBytes);
  }
  return hash.digest('hex');
};
