/**
 * The inspection service's own error class: what the HTTP layer refuses by
 * itself (auth, request shape, host). Errors from core, the store, the
 * workflow, rules and adapters keep their own classes and codes; all of them
 * reach the client through the one table of error-status.ts.
 */
import { CodedError } from '@klvscope/core';

export type InspectionErrorCode =
  /** A file hash the catalog has never recorded. */
  | 'ERR_FILE_UNKNOWN'
  /** No reusable payload of that stage for the file under the current compatibility key. */
  | 'ERR_STAGE_NOT_CACHED'
  /** No ingest run with that id (or, for `latest`, no completed run of the file). */
  | 'ERR_INGEST_RUN_NOT_FOUND'
  /** The ingest run exists but is not completed (running, cancelled, failed or interrupted): it has no datasets to read. */
  | 'ERR_INGEST_RUN_NOT_COMPLETED'
  /** No analysis archive entry for that file. */
  | 'ERR_ARCHIVE_ENTRY_NOT_FOUND'
  /** The body is not valid JSON (or is empty with a JSON content type). */
  | 'ERR_MALFORMED_JSON'
  /** A path parameter, query parameter or body field fails its schema; `details.fields` names each. */
  | 'ERR_INVALID_FIELD'
  /** The body's content type is not one the route reads (JSON). */
  | 'ERR_UNSUPPORTED_MEDIA_TYPE'
  /** The request is malformed in some other way the framework detected (bad URL encoding, Content-Length mismatch). */
  | 'ERR_BAD_REQUEST'
  /** No X-API-Key header on a protected endpoint. */
  | 'ERR_API_KEY_MISSING'
  /** An X-API-Key header that is not the service's key. */
  | 'ERR_API_KEY_WRONG'
  /** A Host header that does not name the loopback interface (DNS rebinding). */
  | 'ERR_HOST_HEADER_REFUSED'
  /** No route has that method and path. */
  | 'ERR_ROUTE_NOT_FOUND'
  /** A path (after resolving `..` and symbolic links) lies outside every browse root. */
  | 'ERR_FILE_OUTSIDE_ROOTS'
  /** No recent source has that id. */
  | 'ERR_SOURCE_NOT_FOUND'
  /** A browse location that is a file, not a folder. */
  | 'ERR_NOT_A_FOLDER'
  /** A playback token that was never issued or has expired. */
  | 'ERR_PLAYBACK_TOKEN_UNKNOWN'
  /** `?video=h264` of a recording whose transcode failed: the message is ffmpeg's reason (the next request tries again). */
  | 'ERR_PLAYBACK_TRANSCODE_FAILED'
  /** `?video=h264` of a recording that needs transcoding, and the service has no ffmpeg: the message says what to install. */
  | 'ERR_PLAYBACK_TRANSCODER_UNAVAILABLE'
  /** The body is over the size limit. */
  | 'ERR_BODY_TOO_LARGE'
  /** A dashboard page was asked for, but `npm run build` has not made web/dist/dashboard. */
  | 'ERR_DASHBOARD_NOT_BUILT'
  /** The service is shutting down: no new requests. */
  | 'ERR_SHUTTING_DOWN'
  /** Anything unexpected: the body says no more, the log has the real error. */
  | 'ERR_INTERNAL'
  /** At start: the configured host is not a loopback address. */
  | 'ERR_HOST_NOT_LOOPBACK'
  /** At start: the port cannot be bound (in use, or not allowed). */
  | 'ERR_LISTEN_FAILED'
  /** At start: a configured API key (option or KLVSCOPE_API_KEY) or the key file's content is not a usable key. */
  | 'ERR_API_KEY_UNUSABLE'
  /** At start: the key file can be read by other users than its owner. */
  | 'ERR_API_KEY_FILE_INSECURE';

export class InspectionError extends CodedError<InspectionErrorCode> {
  override readonly name: string = 'InspectionError';
}
