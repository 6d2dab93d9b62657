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
  | 'ERR_FLEET_JOB_NOT_FOUND'
  /** No probe of that name has ever reported to the fleet. */
  | 'ERR_PROBE_NOT_FOUND'
  /** The probe's heartbeat has stopped: it cannot take a command now. */
  | 'ERR_PROBE_OFFLINE'
  /** The probe did not carry out the command in time (it may still). */
  | 'ERR_PROBE_NO_ANSWER'
  /** The probe carried out the command and failed (a source it cannot open): the message is the probe's. */
  | 'ERR_PROBE_COMMAND_FAILED'
  /** Another probe of the same name is alive. */
  | 'ERR_PROBE_NAME_IN_USE';

export class FleetError extends CodedError<FleetErrorCode> {
  override readonly name: string = 'FleetError';
}
