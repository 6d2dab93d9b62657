/**
 * The fault kinds of the KLV stream (the KLV source injects them itself, see
 * ElementaryStreamSource.acceptFault): their names for `parseFaultSpec`,
 * their one-line summaries, their defaults, and the checks of a spec.
 *
 * Ground truth of every kind: the TS packet that starts the PES carrying the
 * KLV packet named below. `details.klvIndex` is that packet's index among
 * the KLV packets an analyzer frames on the PID (a truncated packet cannot
 * be framed: it is not counted, and the next whole packet gets its index).
 */
import type { KlvErrorType, ObservationKind } from '../kernel/observations.js';
import type { FaultSpec } from './fault-spec.js';
import type { FaultExpectation } from './injected-fault.js';
import type { KlvCarriage } from './klv-stream-options.js';
import { GeneratorError } from './generator-error.js';

export const KLV_CONTENT_FAULT_KINDS = [
  'klv-checksum',
  'klv-unknown-tag',
  'klv-duplicate-tag',
  'klv-missing-timestamp',
  'klv-missing-version',
  'klv-wrong-key',
  'klv-truncated',
] as const;

export const KLV_TIMING_FAULT_KINDS = ['klv-timestamp-reversal', 'klv-dropout', 'klv-rate-jitter', 'klv-clock-drift', 'klv-clock-drift-slow'] as const;

export type KlvContentFaultKind = (typeof KLV_CONTENT_FAULT_KINDS)[number];
export type KlvTimingFaultKind = (typeof KLV_TIMING_FAULT_KINDS)[number];
export type KlvFaultKind = KlvContentFaultKind | KlvTimingFaultKind;

export const DEFAULT_KLV_REVERSAL_MS = 500;
export const DEFAULT_KLV_DROPOUT_MS = 1000;
export const DEFAULT_KLV_JITTER_MS = 10;
export const DEFAULT_KLV_JITTER_DURATION_MS = 1000;
export const DEFAULT_KLV_DRIFT_MS_PER_S = 1;
/** An undefined ST 0601 tag (the table ends at 143). */
export const KLV_UNKNOWN_TAG = 150;
/** A non-repeatable item (Platform Heading Angle). */
export const KLV_DUPLICATED_TAG = 5;

/** One line per kind, for `--help` and docs. */
export const KLV_FAULT_SUMMARIES: Readonly<Record<KlvFaultKind, string>> = {
  'klv-checksum': 'one ST 0601 packet with a wrong checksum (item 1): klv-error klv-checksum-error',
  'klv-unknown-tag': `one ST 0601 packet with an undefined tag ${KLV_UNKNOWN_TAG} before the checksum: klv-error klv-unknown-tag`,
  'klv-duplicate-tag': `one ST 0601 packet with item ${KLV_DUPLICATED_TAG} twice: klv-error klv-duplicate-tag`,
  'klv-missing-timestamp': 'one ST 0601 packet without item 2: klv-error klv-missing-mandatory',
  'klv-missing-version': 'one ST 0601 packet without item 65: klv-error klv-missing-mandatory',
  'klv-wrong-key': 'one KLV packet under an unregistered universal key: klv-error klv-unknown-key',
  'klv-truncated': 'one ST 0601 packet cut short in its metadata AU cell (synchronous carriage): klv-error klv-raw-decode-error',
  'klv-timestamp-reversal': `item 2 of one packet amountMs (default ${DEFAULT_KLV_REVERSAL_MS}) early: metadata-packet, timestamp reversal`,
  'klv-dropout': `no KLV for durationMs (default ${DEFAULT_KLV_DROPOUT_MS}): klv-packet, interval gap at the first packet after it`,
  'klv-rate-jitter': `packet times jittered by up to ±amountMs (default ${DEFAULT_KLV_JITTER_MS}) for durationMs (default ${DEFAULT_KLV_JITTER_DURATION_MS}): klv-packet, interval jitter at the largest deviation`,
  'klv-clock-drift': `item 2 runs fast by amountMs per second (default ${DEFAULT_KLV_DRIFT_MS_PER_S}) from then on: metadata-packet, timestamp drift at the first drifting packet`,
  'klv-clock-drift-slow': `item 2 runs slow by amountMs per second (default ${DEFAULT_KLV_DRIFT_MS_PER_S}) from then on: metadata-packet, timestamp drift at the first drifting packet`,
};

export const KLV_FAULT_KIND_NAMES: readonly KlvFaultKind[] = [...KLV_CONTENT_FAULT_KINDS, ...KLV_TIMING_FAULT_KINDS];

export function isKlvFaultKind(kind: string): kind is KlvFaultKind {
  return (KLV_FAULT_KIND_NAMES as readonly string[]).includes(kind);
}

export function isKlvContentFaultKind(kind: KlvFaultKind): kind is KlvContentFaultKind {
  return (KLV_CONTENT_FAULT_KINDS as readonly string[]).includes(kind);
}

/** What an analyzer must observe at a KLV fault's packet. */
export interface KlvFaultExpectation {
  observation: Extract<ObservationKind, 'klv-error' | 'klv-packet' | 'metadata-packet'>;
  /** For 'klv-error': its type. */
  type?: KlvErrorType;
  /** For 'klv-packet': how the spacing of KLV packets is broken there. */
  interval?: 'gap' | 'jitter';
  /** For 'metadata-packet': how item 2 (the precision time stamp) is broken there. */
  timestamp?: 'reversal' | 'drift';
}

const EXPECTATIONS: Readonly<Record<KlvFaultKind, KlvFaultExpectation>> = {
  'klv-checksum': { observation: 'klv-error', type: 'klv-checksum-error' },
  'klv-unknown-tag': { observation: 'klv-error', type: 'klv-unknown-tag' },
  'klv-duplicate-tag': { observation: 'klv-error', type: 'klv-duplicate-tag' },
  'klv-missing-timestamp': { observation: 'klv-error', type: 'klv-missing-mandatory' },
  'klv-missing-version': { observation: 'klv-error', type: 'klv-missing-mandatory' },
  'klv-wrong-key': { observation: 'klv-error', type: 'klv-unknown-key' },
  'klv-truncated': { observation: 'klv-error', type: 'klv-raw-decode-error' },
  'klv-timestamp-reversal': { observation: 'metadata-packet', timestamp: 'reversal' },
  'klv-dropout': { observation: 'klv-packet', interval: 'gap' },
  'klv-rate-jitter': { observation: 'klv-packet', interval: 'jitter' },
  'klv-clock-drift': { observation: 'metadata-packet', timestamp: 'drift' },
  'klv-clock-drift-slow': { observation: 'metadata-packet', timestamp: 'drift' },
};

/** The ground-truth expectation of a KLV fault kind (a copy, so callers may extend it). */
export function klvFaultExpectation(kind: KlvFaultKind): FaultExpectation {
  return { ...EXPECTATIONS[kind] };
}

/** A checked KLV fault spec, with its defaults filled in. */
export interface KlvFaultRequest {
  spec: FaultSpec;
  kind: KlvFaultKind;
  /** Reversal: how far back (ms); jitter: the largest shift (ms); drift: ms gained (fast) or lost (slow) per second. */
  amountMs: number;
  /** Dropout and jitter: how long (ms). */
  durationMs: number;
}

/** What a KLV fault spec is checked against. */
export interface KlvFaultContext {
  carriage: KlvCarriage;
  rateHz: number;
  /** Null when the source does not know the stream's length yet. */
  durationSeconds: number | null;
}

function specError(spec: FaultSpec, why: string): GeneratorError {
  return new GeneratorError('ERR_FAULT_SPEC', `fault ${spec.kind}@${spec.atSeconds}: ${why}`);
}

/** Checks `spec` (a KLV kind) against the stream; throws GeneratorError ERR_FAULT_SPEC. */
export function checkKlvFaultSpec(spec: FaultSpec, kind: KlvFaultKind, context: KlvFaultContext): KlvFaultRequest {
  const periodMs = 1000 / context.rateHz;
  const { durationSeconds } = context;
  if (!(Number.isFinite(spec.atSeconds) && spec.atSeconds >= 0) || (durationSeconds !== null && spec.atSeconds >= durationSeconds)) {
    throw specError(spec, `time ${spec.atSeconds} s is outside the stream (0 to ${durationSeconds ?? '?'} s)`);
  }
  const request: KlvFaultRequest = { spec, kind, amountMs: spec.amountMs ?? 0, durationMs: spec.durationMs ?? 0 };
  switch (kind) {
    case 'klv-truncated':
      if (context.carriage !== 'sync') {
        // MISB ST 1402: asynchronous KLV may continue in the next PES, so an analyzer reads the next packet's
        // bytes as the rest of a cut one; only a metadata AU cell bounds a KLV packet.
        throw specError(spec, 'needs synchronous carriage: in asynchronous carriage a KLV packet may span PES packets, so a cut-short packet cannot be told from one that continues');
      }
      break;
    case 'klv-timestamp-reversal':
      // A step back smaller than the packet period still leaves the time stamps increasing.
      request.amountMs = spec.amountMs ?? Math.max(DEFAULT_KLV_REVERSAL_MS, 2 * periodMs);
      if (!(request.amountMs > periodMs)) throw specError(spec, `amountMs ${request.amountMs} must exceed the packet period of ${periodMs.toFixed(3)} ms to go back in time`);
      break;
    case 'klv-dropout':
      request.durationMs = spec.durationMs ?? DEFAULT_KLV_DROPOUT_MS;
      if (!(request.durationMs >= periodMs)) throw specError(spec, `durationMs ${request.durationMs} must be at least the packet period of ${periodMs.toFixed(3)} ms`);
      if (durationSeconds !== null && spec.atSeconds + request.durationMs / 1000 >= durationSeconds) {
        throw specError(spec, `the gap ends at ${spec.atSeconds + request.durationMs / 1000} s, after the stream (${durationSeconds} s): no packet would follow it`);
      }
      break;
    case 'klv-rate-jitter':
      request.amountMs = spec.amountMs ?? Math.min(DEFAULT_KLV_JITTER_MS, 0.3 * periodMs);
      request.durationMs = spec.durationMs ?? DEFAULT_KLV_JITTER_DURATION_MS;
      // Shifts below half a period keep the packets in order (no jitter turns into a reversal).
      if (!(request.amountMs > 0 && request.amountMs < periodMs / 2)) {
        throw specError(spec, `amountMs ${request.amountMs} must be below half the packet period (${(periodMs / 2).toFixed(3)} ms)`);
      }
      if (!(request.durationMs > 0)) throw specError(spec, `durationMs ${request.durationMs} must be positive`);
      break;
    case 'klv-clock-drift':
    case 'klv-clock-drift-slow':
      request.amountMs = spec.amountMs ?? DEFAULT_KLV_DRIFT_MS_PER_S;
      // A clock losing a whole second per second stands still.
      if (!(request.amountMs > 0 && request.amountMs < 1000)) throw specError(spec, `amountMs ${request.amountMs} (ms per second) must be in (0, 1000)`);
      break;
    default:
      break;
  }
  return request;
}
