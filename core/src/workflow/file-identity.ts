/**
 * From a path to its content hash, hashing only when needed: the catalog's
 * file record for the path remembers the size and modification time at which
 * it was hashed, and an unchanged pair means unchanged content. (A rewrite
 * that keeps both is taken as unchanged: the price of not reading gigabytes
 * again, and what make and rsync's quick check assume too.)
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Database } from 'sql.js';
import { getFileRecord, hasFileOfSize, putFile, putFileRecord } from '../store/catalog-files.js';
import { hashFile, type FileHasher, type FileHashOptions } from './file-hash.js';

export interface FileIdentity {
  /** Absolute path. */
  path: string;
  /** '' while `hashPending`. */
  hash: string;
  size: number;
  mtimeMs: number;
  /** False when the stored record was reused without reading the file. */
  hashed: boolean;
  /**
   * The hash is to be computed beside the first pass over the file
   * (`deferNewContent`): the content is new to the catalog, so no stage of
   * it can be cached. The pass sets `hash` (recordFileHash) and clears this.
   */
  hashPending?: boolean;
}

export interface FileIdentityOptions extends FileHashOptions {
  /** Default hashFile; tests count calls through it. */
  hasher?: FileHasher;
  /** Default Date.now(). */
  nowMs?: number;
  /**
   * A file whose size no known content has (so its content is new: nothing
   * of it can be cached) is not hashed here but returned `hashPending`, for
   * the pass that has to read it anyway to hash it beside its read.
   */
  deferNewContent?: boolean;
}

/**
 * The hash of the file at `path`, from the catalog's record when size and
 * mtime match, else hashed and recorded (files and file_records). Changes
 * only the in-memory catalog: the caller saves it.
 */
export async function identifyFile(catalog: Database, path: string, options: FileIdentityOptions = {}): Promise<FileIdentity> {
  const { hasher = hashFile, nowMs = Date.now(), deferNewContent = false, ...hashOptions } = options;
  const absolute = resolve(path);
  // Taken before hashing: if the file changes while it is read, its new mtime
  // will not match this record, and the next call hashes it again.
  const { size, mtimeMs } = await stat(absolute);
  const record = getFileRecord(catalog, absolute);
  if (record !== undefined && record.size === size && record.mtimeMs === mtimeMs) {
    return { path: absolute, hash: record.hash, size, mtimeMs, hashed: false };
  }
  if (deferNewContent && !hasFileOfSize(catalog, size)) return { path: absolute, hash: '', size, mtimeMs, hashed: false, hashPending: true };
  const file: FileIdentity = { path: absolute, hash: await hasher(absolute, hashOptions), size, mtimeMs, hashed: true };
  recordFileHash(catalog, file, nowMs);
  return file;
}

/** Records the file's content and the path's record of it (files and file_records), in the in-memory catalog. */
export function recordFileHash(catalog: Database, file: FileIdentity, nowMs: number): void {
  const { path, size, mtimeMs, hash } = file;
  putFile(catalog, { hash, size, firstPath: path, firstSeenMs: nowMs });
  putFileRecord(catalog, { path, size, mtimeMs, hash, checkedMs: nowMs });
}
