/**
 * The workflow's error class (stages, jobs, file sessions), with a stable
 * `code` the gateway maps to an HTTP status (DESIGN.md "Errors").
 */
import { CodedError } from '../kernel/coded-error.js';
export type WorkflowErrorCode =
  /** The file cannot be read (missing, a folder, no permission). */
  | 'ERR_FILE_UNREADABLE'
  /** The file holds no MPEG-TS packets. */
  | 'ERR_NOT_TRANSPORT_STREAM'
  /** A stage needs one before it (e.g. process without a completed ingest run). */
  | 'ERR_STAGE_NOT_READY'
  /** No job with that id (or it was forgotten). */
  | 'ERR_JOB_NOT_FOUND'
  /** The job has finished already: it cannot be cancelled. */
  | 'ERR_JOB_FINISHED'
  /** The job was cancelled (the reason its work stopped). */
  | 'ERR_JOB_CANCELLED'
  /** The job queue is shut down. */
  | 'ERR_JOB_QUEUE_CLOSED'
  /** The work of a job failed without a code of its own. */
  | 'ERR_JOB_FAILED'
  /** A file-session operation needs an active session and there is none. */
  | 'ERR_NO_ACTIVE_SESSION'
  /** No session with that id. */
  | 'ERR_SESSION_NOT_FOUND';

export class WorkflowError extends CodedError<WorkflowErrorCode> {
  override readonly name: string = 'WorkflowError';
}
