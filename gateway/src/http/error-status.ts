/**
 * The one table from stable error codes to HTTP statuses (DESIGN.md
 * "Errors"). Every package's error class carries a `code`; whatever code is
 * not here answers 500 with no detail (the log keeps the real error).
 * docs/rest.md lists the same table; a test checks they agree.
 */

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 500 | 503;

export const ERROR_STATUS: Readonly<Record<string, ErrorStatus>> = Object.freeze({
  // 400: the request itself is wrong (shape, a field, a parameter).
  ERR_MALFORMED_JSON: 400,
  ERR_INVALID_FIELD: 400,
  ERR_UNSUPPORTED_MEDIA_TYPE: 400,
  ERR_BAD_REQUEST: 400,
  ERR_DATASET_INVALID_PARAMETER: 400,
  ERR_TEMPLATE_NAME_INVALID: 400,
  ERR_SOURCE_URL_INVALID: 400,
  ERR_COMMAND_UNKNOWN: 400,
  ERR_TILE_COORDINATES_INVALID: 400,
  // 401: no key or the wrong key.
  ERR_API_KEY_MISSING: 401,
  ERR_API_KEY_WRONG: 401,
  ERR_CREDENTIALS_MISSING: 401,
  ERR_CREDENTIALS_WRONG: 401,
  // 403: understood and refused.
  ERR_FILE_OUTSIDE_ROOTS: 403,
  ERR_HOST_HEADER_REFUSED: 403,
  ERR_ORIGIN_REFUSED: 403,
  // 404: no such route or resource. An id that cannot name a stored run names no resource either.
  ERR_ROUTE_NOT_FOUND: 404,
  ERR_JOB_NOT_FOUND: 404,
  ERR_SESSION_NOT_FOUND: 404,
  ERR_DATASET_UNKNOWN: 404,
  ERR_TEMPLATE_NOT_FOUND: 404,
  ERR_FLEET_JOB_NOT_FOUND: 404,
  ERR_SOURCE_NOT_FOUND: 404,
  ERR_CHECK_NOT_FOUND: 404,
  ERR_STORE_NOT_FOUND: 404,
  ERR_STORE_INVALID_ID: 404,
  ERR_FILE_UNKNOWN: 404,
  ERR_STAGE_NOT_CACHED: 404,
  ERR_INGEST_RUN_NOT_FOUND: 404,
  ERR_ARCHIVE_ENTRY_NOT_FOUND: 404,
  ERR_PLAYBACK_TOKEN_UNKNOWN: 404,
  ERR_VIEWER_NOT_BUILT: 404,
  ERR_DASHBOARD_NOT_BUILT: 404,
  ERR_PLATFORM_NOT_FOUND: 404,
  ERR_CHANNEL_NOT_FOUND: 404,
  ERR_RECORD_NOT_FOUND: 404,
  ERR_PROBE_NOT_FOUND: 404,
  ERR_TILE_NOT_FOUND: 404,
  ERR_MAP_TILES_NOT_CONFIGURED: 404,
  // 409: the request is fine but the state it meets is not.
  ERR_STORE_LOCKED: 409,
  ERR_NO_ACTIVE_SESSION: 409,
  ERR_JOB_FINISHED: 409,
  ERR_JOB_QUEUE_CLOSED: 409,
  ERR_STAGE_NOT_READY: 409,
  ERR_INGEST_RUN_NOT_COMPLETED: 409,
  ERR_TEMPLATE_EXISTS: 409,
  ERR_FLEET_DISABLED: 409,
  ERR_FLEET_JOB_ABANDONED: 409,
  ERR_RECORDER_DISABLED: 409,
  ERR_PROBE_OFFLINE: 409,
  // 413: over the body limit.
  ERR_BODY_TOO_LARGE: 413,
  // 422: the request is well formed, but the file or rule set it names cannot be used.
  // A missing file is 422, not 404: the resource addressed is the endpoint; the file is content of the request.
  ERR_FILE_NOT_FOUND: 422,
  ERR_NOT_A_FILE: 422,
  ERR_FILE_UNREADABLE: 422,
  ERR_NOT_TRANSPORT_STREAM: 422,
  ERR_RULES_INVALID: 422,
  ERR_PROFILE_UNKNOWN: 422,
  ERR_LICENCE_INVALID: 422,
  ERR_NOT_A_FOLDER: 422,
  ERR_SOCKET: 422,
  ERR_SERIAL_OPEN_FAILED: 422,
  ERR_PLAYBACK_TRANSCODE_FAILED: 422,
  ERR_FLEET_JOB_FAILED: 422,
  ERR_PROBE_COMMAND_FAILED: 422,
  // 500: ours, never the client's; the body says ERR_INTERNAL only.
  ERR_INTERNAL: 500,
  // 503: shutting down (a request that arrives on an open connection during close).
  ERR_SHUTTING_DOWN: 503,
  // 503 too: the fleet's catalog database cannot be reached now; the request may be retried.
  ERR_CATALOG_UNAVAILABLE: 503,
  // 503 too: the service lacks a tool (ffmpeg) for this request; installing it is the fix.
  ERR_PLAYBACK_TRANSCODER_UNAVAILABLE: 503,
  // 503 too: the data folder's disk is full; the request may be retried once space is freed.
  ERR_STORE_DISK_FULL: 503,
  // 503 too: a probe did not carry out a command in time; it may be busy or cut off from the database.
  ERR_PROBE_NO_ANSWER: 503,
});

/** The status of a stable code; 500 for a code the table does not know (or no code). */
export function statusOfCode(code: string | undefined): ErrorStatus {
  return (code !== undefined && Object.hasOwn(ERROR_STATUS, code) ? ERROR_STATUS[code] : undefined) ?? 500;
}
