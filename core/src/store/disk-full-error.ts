/**
 * A write refused for want of space (ENOSPC, EDQUOT) as the store's error
 * naming the folder whose disk is full and what became of the write (issue
 * 35: a full disk says so, and says that nothing was left half-written).
 * The database saves, an export's file and the CLI's exit all use it.
 */
import { StoreError } from './store-error.js';

/** ERR_STORE_DISK_FULL for an ENOSPC or EDQUOT error, or null for any other error. */
export function diskFullError(error: unknown, folder: string, outcome: string, details: Record<string, unknown> = {}): StoreError | null {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== 'ENOSPC' && code !== 'EDQUOT') return null;
  return new StoreError('ERR_STORE_DISK_FULL', `the disk holding ${folder} is full (${code}): ${outcome}`, { ...details, folder, reason: code }, { cause: error });
}
