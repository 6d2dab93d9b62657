/**
 * Ground truth: where an injected fault must be seen by an analyzer and what
 * it must report there.
 */
import type { KlvErrorType, ObservationKind, TsErrorType } from '../kernel/observations.js';

/** What an analyzer must observe at the fault's packet. */
export interface FaultExpectation {
  /** The observation kind (kernel/observations.ts) that shows the fault. */
  observation: ObservationKind;
  /** For 'ts-error' and 'klv-error': the error type. */
  type?: TsErrorType | KlvErrorType;
  /** For 'pcr' and 'klv-packet': how the sequence of intervals is broken there. */
  interval?: 'gap' | 'jump-backward' | 'jump-forward' | 'jitter';
  /** For 'metadata-packet': how the KLV time stamps are wrong there. */
  timestamp?: 'reversal' | 'drift';
}

export interface InjectedFault {
  kind: string;
  /** PID of the packet at `packetIndex`. */
  pid: number;
  /** 0-based index, in the generated output, of the packet where the fault shows. */
  packetIndex: number;
  /** Byte offset of that packet's sync byte in the output (as `Position.offset` of an observation). */
  offset: number;
  /** The time the spec asked for (seconds from the start of the stream). */
  atSeconds: number;
  expect: FaultExpectation;
  /** Kind-specific facts (sizes of gaps, counters, shifts), for messages and finer assertions. */
  details?: Record<string, number | string | boolean>;
}
