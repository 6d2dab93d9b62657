/**
 * Files by content hash, and file records by path: the record remembers the
 * size and modification time at which a path had a hash, so an unchanged
 * file is not hashed again (workflow/file-identity.ts).
 */
import type { Database } from 'sql.js';
import { execute, numberColumn, selectOne, textColumn, type SqlRow } from './sql-query.js';

export interface FileRow {
  hash: string;
  size: number;
  firstPath: string;
  firstSeenMs: number;
}

export interface FileRecordRow {
  path: string;
  size: number;
  mtimeMs: number;
  hash: string;
  checkedMs: number;
}

/** Adds the file if its hash is new; a known hash keeps its first path. */
export function putFile(db: Database, file: FileRow): void {
  execute(db, 'INSERT INTO files (hash, size, first_path, first_seen_ms) VALUES ($hash, $size, $path, $seen) ON CONFLICT (hash) DO NOTHING', {
    $hash: file.hash,
    $size: file.size,
    $path: file.firstPath,
    $seen: file.firstSeenMs,
  });
}

export function getFile(db: Database, hash: string): FileRow | undefined {
  const row = selectOne(db, 'SELECT * FROM files WHERE hash = $hash', { $hash: hash });
  return row && fileFrom(row);
}

/** A files row as read from either backend. */
export function fileFrom(row: SqlRow): FileRow {
  return { hash: textColumn(row, 'hash'), size: numberColumn(row, 'size'), firstPath: textColumn(row, 'first_path'), firstSeenMs: numberColumn(row, 'first_seen_ms') };
}

/** Whether any known content has this size: when none has, a file of this size is content the catalog has never seen. */
export function hasFileOfSize(db: Database, size: number): boolean {
  return selectOne(db, 'SELECT 1 AS known FROM files WHERE size = $size LIMIT 1', { $size: size }) !== undefined;
}

export function putFileRecord(db: Database, record: FileRecordRow): void {
  execute(
    db,
    `INSERT INTO file_records (path, size, mtime_ms, hash, checked_ms) VALUES ($path, $size, $mtime, $hash, $checked)
     ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, hash = excluded.hash, checked_ms = excluded.checked_ms`,
    { $path: record.path, $size: record.size, $mtime: record.mtimeMs, $hash: record.hash, $checked: record.checkedMs },
  );
}

export function getFileRecord(db: Database, path: string): FileRecordRow | undefined {
  const row = selectOne(db, 'SELECT * FROM file_records WHERE path = $path', { $path: path });
  return row && fileRecordFrom(row);
}

export function fileRecordFrom(row: SqlRow): FileRecordRow {
  return {
    path: textColumn(row, 'path'),
    size: numberColumn(row, 'size'),
    mtimeMs: numberColumn(row, 'mtime_ms'),
    hash: textColumn(row, 'hash'),
    checkedMs: numberColumn(row, 'checked_ms'),
  };
}
