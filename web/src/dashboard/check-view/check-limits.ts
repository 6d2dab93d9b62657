/**
 * The rule values drawn across a check's plot: for each built-in check whose
 * points are measured against a fixed bound, the rule fields that are that
 * bound (the checks' rule slices in plugins/src). A check judged otherwise
 * (per-PID rates, presence, errors) has none.
 */

export interface LimitLine {
  label: string;
  value: number;
}

type LimitOf = (rules: Record<string, unknown>) => Array<LimitLine | null>;

const field =
  (name: string, label: string, sign = 1) =>
  (rules: Record<string, unknown>): LimitLine | null => {
    const value = rules[name];
    return typeof value === 'number' && Number.isFinite(value) ? { label: `limit ${sign * value} ms (${label})`, value: sign * value } : null;
  };

const LIMITS: Readonly<Record<string, LimitOf>> = {
  'mpegts-pcr-intervals': (r) => [field('maxIntervalMs', 'maxIntervalMs')(r)],
  'mpegts-pat-intervals': (r) => [field('maxIntervalMs', 'maxIntervalMs')(r)],
  'mpegts-pmt-intervals': (r) => [field('maxIntervalMs', 'maxIntervalMs')(r)],
  'mpegts-max-pts-intervals': (r) => [field('maxIntervalMs', 'maxIntervalMs')(r)],
  'mpegts-pcr-monotonicity': (r) => [field('maxJumpMs', 'maxJumpMs')(r)],
  'mpegts-pcr-pts-drift': (r) => [field('minDelayMs', 'minDelayMs')(r), field('maxDelayMs', 'maxDelayMs')(r)],
  'klv-timestamp-monotonicity': (r) => [field('maxStepMs', 'maxStepMs')(r)],
  // |drift| is bounded: the limit on both sides.
  'klv-stream-vs-klv-drift': (r) => [field('maxDriftMs', 'maxDriftMs')(r), field('maxDriftMs', '−maxDriftMs', -1)(r)],
};

/** The limits of check `checkId` in the rules it ran with (as the detail endpoint gives them: anything but an object has none). */
export function limitLines(checkId: string, rules: unknown): LimitLine[] {
  if (typeof rules !== 'object' || rules === null) return [];
  return (LIMITS[checkId]?.(rules as Record<string, unknown>) ?? []).filter((line): line is LimitLine => line !== null);
}
