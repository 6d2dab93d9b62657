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
import { getFileRecord, putFile, putFileRecord } from '../store/catalog-files.js';
import { hashFile, type FileHasher, type FileHashOptions } from './file-hash.js';

export interface FileIdentity {
  /** Absolute path. */
  path: string;
  hash: string;
  size: number;
  mtimeMs: number;
  /** False when the stored record was reused without reading the file. */
  hashed: boolean;
}

export interface FileIdentityOptions extends FileHashOptions {
  /** Default hashFile; tests count calls through it. */
  hasher?: FileHasher;
  /** Default Date.now(). */
  nowMs?: number;
}

/**
 * The hash of the file at `path`, from the catalog's record when size and
 * mtime match, else hashed and recorded (files and file_records). Changes
 * only the in-memory catalog: the caller saves it.
 */
export async function identifyFile(catalog: Database, path: string, options: FileIdentityOptions = {}): Promise<FileIdentity> {
  const { hasher = hashFile, nowMs = Date.now(), ...hashOptions } = options;
  const absolute = resolve(path);
  // Taken before hashing: if the file changes while it is read, its new mtime
  // will not match this record, and the next call hashes it again.
  const { size, mtimeMs } = await stat(absolute);
  const record = getFileRecord(catalog, absolute);
  if (record !== undefined && record.size === size && record.mtimeMs === mtimeMs) {
    return { path: absolute, hash: record.hash, size, mtimeMs, hashed: false };
  }
  const hash = await hasher(absolute, hashOptions);
  putFile(catalog, { hash, size, firstPath: absolute, firstSeenMs: nowMs });
  putFileRecord(catalog, { path: absolute, size, mtimeMs, hash, checkedMs: nowMs });
  return { path: absolute, hash, size, mtimeMs, hashed: true };
}
