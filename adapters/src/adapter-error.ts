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
  | 'ERR_FILE_UNREADABLE'
  /** A live source URL (udp:, serial:) that cannot be used: its problem is named in the message. */
  | 'ERR_SOURCE_URL_INVALID'
  // Serial capture (serial.ts).
  /** The serial device could not be opened (missing, busy, no permission, settings refused): the OS message says why. */
  | 'ERR_SERIAL_OPEN_FAILED'
  /** The serial device failed or went away while being read. */
  | 'ERR_SERIAL_READ_FAILED'
  // UDP sources and replay (udp.ts, replay.ts).
  /** A replay destination URL (`udp://HOST:PORT?ttl=N`) that cannot be used: its problem is named in the message. */
  | 'ERR_DESTINATION_URL_INVALID'
  /** The system refused a socket operation (bind, join a group, buffer size): the errno is in the details. */
  | 'ERR_SOCKET'
  /** The file holds no run of MPEG-TS packets (188, 192 or 204 bytes). */
  | 'ERR_NOT_TRANSPORT_STREAM'
  /** A replay at a finite speed found no PCR to pace the file by. */
  | 'ERR_NO_PCR'
  // ffmpeg (transcoder.ts, capture-source.ts).
  /** ffmpeg is needed and not installed (or KLVSCOPE_FFMPEG names no executable, or it cannot be run): the message says what to install. */
  | 'ERR_FFMPEG_NOT_FOUND'
  /** ffmpeg exited or was killed while it was needed: how, and its last stderr lines, are in the message. */
  | 'ERR_FFMPEG_FAILED'
  /** A capture device that ffmpeg cannot open, or that gives no video in time: ffmpeg's words in the message. */
  | 'ERR_CAPTURE_OPEN_FAILED';

export class AdapterError extends CodedError<AdapterErrorCode> {
  override readonly name: string = 'AdapterError';
}
