/**
 * What the streaming module needs of a recorder: it is given every packet
 * the module passes on, and started and stopped by POST /command. States:
 * `stopped` (initial; after `stop`), `running` (after `start`), `failed`
 * (the file cannot be written: a full disk, a folder that is gone; the
 * stream goes on, and `start` tries again). docs/streaming.md.
 */
import type { RecorderStatus } from '@klvscope/core';
import { StreamingError } from './streaming-error.js';

export interface StreamRecorder {
  start(): Promise<RecorderStatus>;
  stop(): Promise<RecorderStatus>;
  /** Never throws, never waits: the streaming path calls it. */
  write(bytes: Uint8Array): void;
  status(): RecorderStatus;
}

/** The recorder of a module configured with `recorderEnabled: false`: stopped since it was made, and `start` says why. */
export function disabledRecorder(): StreamRecorder {
  const status: RecorderStatus = { state: 'stopped', timeStarted: new Date().toISOString(), file: null, reason: null };
  return {
    start: () => Promise.reject(new StreamingError('ERR_RECORDER_DISABLED', 'the recorder is disabled by the configuration (recorderEnabled: false)')),
    stop: () => Promise.resolve({ ...status }),
    write: () => undefined,
    status: () => ({ ...status }),
  };
}
