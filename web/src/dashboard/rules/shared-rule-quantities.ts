/**
 * Rules of different checks that bound the same quantity. Each check keeps
 * its own copy of the limit (a check's rule slice is its own), so raising
 * `mpegts-pcr-intervals` maxIntervalMs alone would leave TR 101 290's 2.3a
 * (`mpegts-errors` pcrMaxIntervalMs) failing the same PCR gap. The form sets
 * the fields of one quantity together and says so at each.
 */
export interface SharedRuleQuantity {
  /** What the fields bound, as the form names it. */
  quantity: string;
  /** Field keys (`checks.ID.rule`). */
  fields: readonly string[];
}

export const SHARED_RULE_QUANTITIES: readonly SharedRuleQuantity[] = [
  { quantity: 'the time between two PCRs of a PID', fields: ['checks.mpegts-pcr-intervals.maxIntervalMs', 'checks.mpegts-errors.pcrMaxIntervalMs'] },
  { quantity: 'the step between two consecutive PCR values', fields: ['checks.mpegts-pcr-monotonicity.maxJumpMs', 'checks.mpegts-errors.pcrMaxJumpMs'] },
  { quantity: 'the time between two PES with a PTS on a PID', fields: ['checks.mpegts-max-pts-intervals.maxIntervalMs', 'checks.mpegts-errors.ptsMaxIntervalMs'] },
  { quantity: 'the time between two PAT sections', fields: ['checks.mpegts-pat-intervals.maxIntervalMs', 'checks.mpegts-errors.patMaxIntervalMs'] },
  { quantity: 'the time between two PMT sections', fields: ['checks.mpegts-pmt-intervals.maxIntervalMs', 'checks.mpegts-errors.pmtMaxIntervalMs'] },
];

/** The quantity the field at `path` bounds with other fields, or null. */
export function sharedQuantityOf(path: readonly string[]): SharedRuleQuantity | null {
  // The field key as rule-form-fields.ts makes it (that module brings the whole JSON Schema along).
  const key = path.join('.');
  return SHARED_RULE_QUANTITIES.find((shared) => shared.fields.includes(key)) ?? null;
}
