/** What recorder-child.ts records, shared with the tests that check its files. */
import { generateTransportStream } from '@klvscope/core';

export interface ChildConfig {
  folder: string;
  rotateBytes: number;
  stream: { durationSeconds: number; bitrate: number; seed: number };
  /** Copy the folder there before exiting (the tmpfs of a private mount namespace goes with the process). */
  copyTo?: string;
}

/** The bytes the child sends for a configuration (the tests regenerate them to compare). */
export function childStream(config: ChildConfig): Uint8Array {
  return generateTransportStream({ ...config.stream, klv: {} }).bytes;
}
