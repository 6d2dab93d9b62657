/**
 * The one error class of @klvscope/adapters, with a stable `code` the
 * gateway maps to an HTTP status. `path` names the file or address concerned.
 */
import { CodedError } from '@klvscope/core';

export type AdapterErrorCode =
  /** Nothing at the path (or a component of it is not a directory). */
  | 'ERR_FILE_NOT_FOUND'
  /** Something is at the path, but not a regular file (a directory, a FIFO, a device). */
  | 'ERR_NOT_A_FILE'
  /** The file exists but cannot be opened or read (permissions, I/O error). */
  | 'ERR_FILE_UNREADABLE';

export class AdapterError extends CodedError<AdapterErrorCode> {
  override readonly name: string = 'AdapterError';
}
