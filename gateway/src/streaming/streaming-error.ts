/**
 * The streaming module's own error class: what its HTTP surface refuses by
 * itself. The codes reach the client through the one table of
 * inspection/error-status.ts, in the one JSON error body.
 */
import { CodedError } from '@klvscope/core';

export type StreamingErrorCode =
  /** POST /command without an Authorization header of the Basic scheme. */
  | 'ERR_CREDENTIALS_MISSING'
  /** An Authorization header whose user or password is not the module's. */
  | 'ERR_CREDENTIALS_WRONG'
  /** A command body that is not one of the five combinations of the spec. */
  | 'ERR_COMMAND_UNKNOWN'
  /** `recorder start` while the configuration disables the recorder. */
  | 'ERR_RECORDER_DISABLED'
  /** The credentials file exists but others can read it, or it holds no usable `user:password` line. */
  | 'ERR_CREDENTIALS_FILE_UNUSABLE'
  /** The configuration of the module is wrong (a value out of range, a bad source URL). */
  | 'ERR_STREAM_CONFIG_INVALID'
  /** The module cannot listen on its host and port. */
  | 'ERR_LISTEN_FAILED'
  /** The viewer's files are not built (npm run build makes them). */
  | 'ERR_VIEWER_NOT_BUILT';

export class StreamingError extends CodedError<StreamingErrorCode> {
  override readonly name = 'StreamingError';
}
