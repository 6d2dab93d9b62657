/**
 * Small checks for the rules tests, not the real plugins (rules may not
 * import them). Their defaults differ from the profiles' values on purpose,
 * so a test can tell a check default from a profile value.
 */
import { defineCheck, type AnyCheck, type RulesSchema } from '@klvscope/core';
import { z } from 'zod';
import * as zm from 'zod/mini';

/** A rule the stanag4609 profile names (100 ms there). */
export const pcrIntervals = defineCheck({
  id: 'mpegts-pcr-intervals',
  version: '1.0.0',
  title: 'PCR intervals',
  rules: z.object({ maxIntervalMs: z.number().positive().default(60).describe('longest interval between PCRs, ms') }),
  consumes: ['pcr'],
  create: () => ({}),
});

/** Two rules the profiles name and one they do not; a refinement across two of them. */
export const ptsDrift = defineCheck({
  id: 'mpegts-pcr-pts-drift',
  version: '1.0.0',
  title: 'PCR/PTS drift',
  rules: z
    .object({
      minDelayMs: z.number().default(-50),
      maxDelayMs: z.number().positive().default(2000),
      windowS: z.number().positive().default(10).describe('averaging window, s'),
    })
    .refine((rules) => rules.minDelayMs < rules.maxDelayMs, { message: 'minDelayMs must be below maxDelayMs', path: ['minDelayMs'] }),
  consumes: ['pes'],
  create: () => ({}),
});

/** An array rule (the profiles give [1, 2, 65]). */
export const mandatoryFields = defineCheck({
  id: 'klv-mandatory-field-errors',
  version: '1.0.0',
  title: 'Mandatory items',
  rules: z.object({ mandatoryTags: z.array(z.number().int().min(1).max(143)).default([1]) }),
  consumes: ['metadata-packet'],
  create: () => ({}),
});

/** A check no profile knows, as a team's plugin brings it. */
export const teamCheck = defineCheck({
  id: 'team-check',
  version: '1.0.0',
  title: 'A team check',
  rules: z.object({
    limit: z.number().default(7).describe('how many'),
    label: z.string().default('x'),
    mode: z.enum(['fast', 'slow']).default('fast'),
  }),
  consumes: ['pes'],
  create: () => ({}),
});

/**
 * A team check whose slice is built with zod/mini (the others use classic
 * zod): descriptions inside `z._default(...)` and outside one, a nullable
 * rule, a refinement across two rules.
 */
export const miniTeamCheck = defineCheck({
  id: 'team-mini-check',
  version: '1.0.0',
  title: 'A zod/mini team check',
  rules: zm
    .object({
      low: zm._default(zm.number().check(zm.describe('lower bound')), 1),
      high: zm._default(zm.nullable(zm.number().check(zm.positive(), zm.describe('upper bound; null: none'))), null),
      label: zm._default(zm.string(), 'x').check(zm.describe('a label, described outside its default')),
      mode: zm._default(zm.enum(['fast', 'slow']), 'fast'),
    })
    .check(zm.refine((rules) => rules.high === null || rules.low < rules.high, { message: 'low must be below high', path: ['low'] })),
  consumes: ['pes'],
  create: () => ({}),
});

/** A check without rules. */
export const tablePositions = defineCheck({
  id: 'mpegts-psi-table-positions',
  version: '1.0.0',
  title: 'PSI table positions',
  consumes: ['psi-section'],
  create: () => ({}),
});

/**
 * A slice that is not a zod 4 schema, as a plugin built with zod 3 brings it:
 * a `safeParse` that strips unknown keys and reports issues by path and message.
 */
const legacyRules = {
  safeParse(value: unknown) {
    const given = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const threshold = given.threshold ?? 3;
    if (typeof threshold !== 'number') return { success: false, error: { issues: [{ path: ['threshold'], message: 'Expected number, received string' }] } };
    return { success: true, data: { threshold } };
  },
} as unknown as RulesSchema;

export const legacyCheck = defineCheck({
  id: 'legacy-check',
  version: '1.0.0',
  title: 'A zod 3 check',
  rules: legacyRules,
  consumes: ['pes'],
  create: () => ({}),
});

export const CHECKS: readonly AnyCheck[] = [pcrIntervals, ptsDrift, mandatoryFields, teamCheck, tablePositions];

/** The error a call throws, for asserting its code, message and problems exactly. */
export { thrownBy } from '../../test-support/thrown.js';
