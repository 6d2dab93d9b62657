/**
 * The channel relay's own error class: what its HTTP surface refuses by
 * itself. The codes reach the client through the one table of
 * http/error-status.ts, in the one JSON error body.
 */
import { CodedError } from '@klvscope/core';

export type RelayErrorCode =
  /** The console's pages when web/dist/relay-console is not built (the same code as any path the relay does not have). */
  | 'ERR_ROUTE_NOT_FOUND'
  /** No platform has that id. */
  | 'ERR_PLATFORM_NOT_FOUND'
  /** No channel has that channelId. */
  | 'ERR_CHANNEL_NOT_FOUND'
  /** No server status record or log message has that id. */
  | 'ERR_RECORD_NOT_FOUND'
  /** The relay cannot listen on its host and port. */
  | 'ERR_LISTEN_FAILED';

export class RelayError extends CodedError<RelayErrorCode> {
  override readonly name = 'RelayError';
}
