/** The fleet's error class, with a stable code the gateway maps to an HTTP status (error-status.ts). */
import { CodedError } from '@klvscope/core';

export type FleetErrorCode =
  /** A worker tried the job and failed (after its retries): the message says why. */
  | 'ERR_FLEET_JOB_FAILED'
  /** The request was cancelled while its job waited; the job itself goes on. */
  | 'ERR_FLEET_JOB_ABANDONED'
  /** The service has no fleet (started without --catalog). */
  | 'ERR_FLEET_DISABLED'
  /** No such fleet job. */
  | 'ERR_FLEET_JOB_NOT_FOUND';

export class FleetError extends CodedError<FleetErrorCode> {
  override readonly name: string = 'FleetError';
}
