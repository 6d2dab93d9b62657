/**
 * The part of the configuration the kernel reads. The gateway loads the
 * whole configuration (with the rule set validated by @klvscope/rules) and
 * registers this slice in the composition root.
 */
import { DEFAULT_MAX_POINTS_PER_CHECK } from './check-session.js';

export interface KernelConfig {
  /** Rule slices by check id (schema input; each check fills in its defaults). */
  readonly rules: Readonly<Record<string, unknown>>;
  /** Kept points per check and run; the summary counts all of them. */
  readonly maxPointsPerCheck: number;
}

export const DEFAULT_KERNEL_CONFIG: KernelConfig = Object.freeze({
  rules: Object.freeze({}),
  maxPointsPerCheck: DEFAULT_MAX_POINTS_PER_CHECK,
});
