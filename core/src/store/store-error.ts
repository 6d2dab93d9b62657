/**
 * The one error class of the store, with a stable `code` the gateway can map
 * to an HTTP status (DESIGN.md "Errors"). Same shape as CoreError, whose code
 * union lives in the kernel; the store keeps its own codes beside its code.
 */
import { CodedError } from '../kernel/coded-error.js';
export type StoreErrorCode =
  /** Another process (or another open in this process) holds the data folder's lock. */
  | 'ERR_STORE_LOCKED'
  /** A database file was written by a newer klvscope than this one. */
  | 'ERR_STORE_SCHEMA_TOO_NEW'
  /** A migration failed; the database was left at its previous version. */
  | 'ERR_STORE_MIGRATION_FAILED'
  /** A file is not an SQLite database, or a column holds an unexpected value. */
  | 'ERR_STORE_CORRUPT'
  /** A database file that must exist does not. */
  | 'ERR_STORE_NOT_FOUND'
  /** An identifier cannot name a file (e.g. a run id with a slash). */
  | 'ERR_STORE_INVALID_ID'
  /** The store or database was used after close(). */
  | 'ERR_STORE_CLOSED'
  /** The disk a database is saved to is full (ENOSPC, EDQUOT): nothing was replaced; a later save writes again. */
  | 'ERR_STORE_DISK_FULL'
  /** The catalog's database server cannot be reached (down, restarting, refusing connections): retry later. */
  | 'ERR_CATALOG_UNAVAILABLE';

export class StoreError extends CodedError<StoreErrorCode> {
  override readonly name: string = 'StoreError';
}
