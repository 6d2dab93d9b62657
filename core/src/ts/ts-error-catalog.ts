import type { Severity, TsErrorType } from '../kernel/observations.js';

interface TsErrorEntry {
  readonly severity: Severity;
  /** ETSI TR 101 290 clause, or null where TR 101 290 has no indicator for it. */
  readonly tr101290: string | null;
}

/** Severity and TR 101 290 clause of every parser-level problem type. */
export const TS_ERROR_CATALOG: Readonly<Record<TsErrorType, TsErrorEntry>> = {
  'sync-loss': { severity: 'error', tr101290: '1.1' },
  'sync-byte-error': { severity: 'error', tr101290: '1.2' },
  'pat-error': { severity: 'error', tr101290: '1.3.a' },
  'continuity-error': { severity: 'error', tr101290: '1.4' },
  // ISO 13818-1 2.4.3.3 allows one duplicate of a packet; it is noted, not an error.
  'duplicate-packet': { severity: 'info', tr101290: '1.4' },
  'pmt-error': { severity: 'error', tr101290: '1.5.a' },
  'transport-error': { severity: 'error', tr101290: '2.1' },
  'psi-crc-error': { severity: 'error', tr101290: '2.2' },
  'malformed-psi-section': { severity: 'error', tr101290: null },
  'malformed-pes-header': { severity: 'error', tr101290: null },
  'malformed-adaptation-field': { severity: 'error', tr101290: null },
  'scrambled-packet': { severity: 'info', tr101290: null },
  'truncated-packet': { severity: 'warning', tr101290: null },
};

/** Every type the TS parser reports (the raw errors dataset's `types` filter accepts exactly these). */
export const TS_ERROR_TYPES: readonly TsErrorType[] = Object.keys(TS_ERROR_CATALOG) as TsErrorType[];
