/**
 * The error class of the raw dataset layer, with a stable `code` the gateway
 * maps to an HTTP status (DESIGN.md "Errors"). Same shape as CoreError and
 * StoreError, so the gateway's error body works for all three.
 */
import { CodedError } from '../../kernel/coded-error.js';
export type DatasetErrorCode =
  /** No raw dataset has the name asked for (an unknown path suffix: 404). */
  | 'ERR_DATASET_UNKNOWN'
  /** A paging, filter or format parameter has a value the dataset does not accept (400). */
  | 'ERR_DATASET_INVALID_PARAMETER'
  /** An observation of a kind the run database has no table for (from a newer engine). */
  | 'ERR_DATASET_UNSUPPORTED_KIND'
  /** An observation writer was used after finish() or abort(). */
  | 'ERR_DATASET_WRITER_CLOSED';

export class DatasetError extends CodedError<DatasetErrorCode> {
  override readonly name: string = 'DatasetError';
}
