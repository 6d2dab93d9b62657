/**
 * The error class of the raw dataset layer, with a stable `code` the gateway
 * maps to an HTTP status (DESIGN.md "Errors"). Same shape as CoreError and
 * StoreError, so the gateway's error body works for all three.
 */
export type DatasetErrorCode =
  /** No raw dataset has the name asked for (an unknown path suffix: 404). */
  | 'ERR_DATASET_UNKNOWN'
  /** A paging, filter or format parameter has a value the dataset does not accept (400). */
  | 'ERR_DATASET_INVALID_PARAMETER'
  /** An observation of a kind the run database has no table for (from a newer engine). */
  | 'ERR_DATASET_UNSUPPORTED_KIND'
  /** An observation writer was used after finish() or abort(). */
  | 'ERR_DATASET_WRITER_CLOSED';

export class DatasetError extends Error {
  override readonly name: string = 'DatasetError';

  constructor(
    readonly code: DatasetErrorCode,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The shape of the gateway's error body: `{ code, message, details }`. */
  toJSON(): { code: DatasetErrorCode; message: string; details?: Readonly<Record<string, unknown>> } {
    return this.details === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details };
  }
}
