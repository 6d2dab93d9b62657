/** Severity and source of every KLV problem type the engine reports. */
import type { KlvErrorType, Severity } from '../kernel/observations.js';

interface KlvErrorEntry {
  readonly severity: Severity;
  readonly citation: string;
}

export const KLV_ERROR_CATALOG: Readonly<Record<KlvErrorType, KlvErrorEntry>> = {
  'klv-raw-decode-error': { severity: 'error', citation: 'SMPTE ST 336 (KLV key, BER length, value framing)' },
  'klv-unknown-key': { severity: 'error', citation: 'MISB ST 0601 (UAS Datalink LS universal key)' },
  // Recognised keys that are not ST 0601: named for what they are, not "unknown".
  'klv-legacy-set': { severity: 'warning', citation: 'MISB EG 0104 (Predator UAV Basic Universal Set, superseded by ST 0601, which STANAG 4609 asks for)' },
  'klv-undecoded-set': { severity: 'info', citation: 'MISB ST 0601 (a stream may carry other registered MISB sets beside it)' },
  'klv-checksum-error': { severity: 'error', citation: 'MISB ST 0601 item 1 (checksum)' },
  'klv-unknown-tag': { severity: 'warning', citation: 'MISB ST 0601 (tags 1-143)' },
  'klv-duplicate-tag': { severity: 'error', citation: 'MISB ST 0601 (an item appears once per packet unless the standard allows repeats)' },
  'klv-missing-mandatory': { severity: 'error', citation: 'MISB ST 0601 (mandatory items 1, 2 and 65)' },
  'klv-bad-item-length': { severity: 'error', citation: 'MISB ST 0601 (item length rules)' },
};
