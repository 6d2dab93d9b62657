/**
 * The one error class of @klvscope/core. `code` is stable (the gateway maps
 * it to an HTTP status in one table); `message` is for people. Problems found
 * in a stream are observations and points, never a CoreError.
 */
import { CodedError } from './coded-error.js';

export type CoreErrorCode =
  /** A check definition breaks the contract (bad id, version, consumes, rules or create). */
  | 'ERR_CHECK_INVALID'
  /** Two checks with the same id were registered. */
  | 'ERR_CHECK_DUPLICATE'
  /** A check id was asked for that no registered check has. */
  | 'ERR_CHECK_NOT_FOUND'
  /** The rule slice given for a check does not match its schema. */
  | 'ERR_RULES_INVALID'
  /** A check threw (reported as a PluginError result entry, not thrown by the pipeline). */
  | 'ERR_CHECK_FAILED'
  /** A byte source gave chunks whose offsets are not contiguous from 0. */
  | 'ERR_SOURCE_NOT_CONTIGUOUS';

export class CoreError extends CodedError<CoreErrorCode> {
  override readonly name: string = 'CoreError';
}
