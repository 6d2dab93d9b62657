/**
 * Alarm limits that cannot be met together, found across the whole body at
 * once (zod's own refinements stop at the first level that has an issue):
 * a minimum above its maximum could never be met; a PID given twice would
 * keep only one of its limits.
 */
import type { RelayChannelAlarms } from '@klvscope/core/store';
import type { FieldProblem } from '../http/request-validation.js';

export function alarmLimitProblems(alarms: RelayChannelAlarms, field: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const minNotAboveMax = (limits: { minBitrate: number | null; maxBitrate: number | null }, at: string): void => {
    if (limits.minBitrate !== null && limits.maxBitrate !== null && limits.minBitrate > limits.maxBitrate) {
      problems.push({ in: 'body', field: `${at}.minBitrate`, message: `${limits.minBitrate} is above maxBitrate ${limits.maxBitrate}` });
    }
  };
  minNotAboveMax(alarms, field);
  const seen = new Set<number>();
  alarms.pids.forEach((limits, i) => {
    if (seen.has(limits.pid)) problems.push({ in: 'body', field: `${field}.pids[${i}].pid`, message: `PID ${limits.pid} is given twice` });
    seen.add(limits.pid);
    minNotAboveMax(limits, `${field}.pids[${i}]`);
  });
  return problems;
}
