/**
 * The one error class of @klvscope/adapters, with a stable `code` the
 * gateway maps to an HTTP status. `path` names the file or address concerned.
 */

export type AdapterErrorCode =
  /** Nothing at the path (or a component of it is not a directory). */
  | 'ERR_FILE_NOT_FOUND'
  /** Something is at the path, but not a regular file (a directory, a FIFO, a device). */
  | 'ERR_NOT_A_FILE'
  /** The file exists but cannot be opened or read (permissions, I/O error). */
  | 'ERR_FILE_UNREADABLE';

export class AdapterError extends Error {
  override readonly name = 'AdapterError';

  constructor(
    readonly code: AdapterErrorCode,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The shape of the gateway's error body: `{ code, message, details }`. */
  toJSON(): { code: AdapterErrorCode; message: string; details?: Readonly<Record<string, unknown>> } {
    return this.details === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details };
  }
}
