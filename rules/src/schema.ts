/**
 * The rule set: the union of the registered checks' rule slices plus a few
 * shared settings, validated strictly (an unknown check, rule or setting is
 * refused), every problem named by its path.
 *
 *   { "profile": "stanag4609",
 *     "shared": { "maxPointsPerCheck": 100000 },
 *     "checks": { "mpegts-pcr-intervals": { "maxIntervalMs": 40 } } }
 *
 * Resolution order: a check's own defaults < the profile < the user's values.
 */
import { z } from 'zod';
import type { AnyCheck } from '@klvscope/core';
import { DEFAULT_PROFILE, getProfile } from './profiles.js';
import { RulesError } from './rules-error.js';

export const DEFAULT_MAX_POINTS_PER_CHECK = 100_000;

export interface RuleSetInput {
  profile?: string;
  shared?: { maxPointsPerCheck?: number };
  checks?: Record<string, Record<string, unknown>>;
}

/** The effective rule set: every check's every rule filled in. */
export interface RuleSet {
  profile: string;
  shared: { maxPointsPerCheck: number };
  checks: Record<string, Record<string, unknown>>;
}

const sharedSchema = z.strictObject({
  maxPointsPerCheck: z.number().int().positive().optional().describe('points kept per check in a run; the summary counts them all'),
});

/** A check's slice as the user may give it: any subset of its rules, nothing else. */
function partialSlice(check: AnyCheck): z.ZodType {
  const schema = check.rules;
  if (schema instanceof z.ZodObject) return schema.partial().strict();
  return schema.optional();
}

export function buildRuleSetSchema(checks: readonly AnyCheck[]): z.ZodType<RuleSetInput> {
  const slices = Object.fromEntries(checks.map((c) => [c.id, partialSlice(c).optional()]));
  return z.strictObject({
    profile: z.string().min(1).optional(),
    shared: sharedSchema.optional(),
    checks: z.strictObject(slices).optional(),
  }) as unknown as z.ZodType<RuleSetInput>;
}

function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`);
}

function invalid(problems: string[]): RulesError {
  return new RulesError('ERR_RULES_INVALID', `invalid rule set: ${problems.join('; ')}`, problems);
}

export interface ResolvedRules {
  ruleSet: RuleSet;
  /** The slices a run takes, by check id. */
  slices: Record<string, Record<string, unknown>>;
}

/** Validates `input` and resolves the effective rule set (`profile` overrides the one the input names). */
export function resolveRuleSet(checks: readonly AnyCheck[], input: unknown = {}, options: { profile?: string } = {}): ResolvedRules {
  const parsed = buildRuleSetSchema(checks).safeParse(input ?? {});
  if (!parsed.success) throw invalid(problemsOf(parsed.error));
  const given = parsed.data;
  const profile = getProfile(options.profile ?? given.profile ?? DEFAULT_PROFILE);
  const slices: Record<string, Record<string, unknown>> = {};
  const problems: string[] = [];
  for (const check of checks) {
    const fromProfile = Object.fromEntries(Object.entries(profile.checks[check.id] ?? {}).map(([key, cited]) => [key, cited.value]));
    const merged = { ...fromProfile, ...(given.checks?.[check.id] ?? {}) };
    const result = (check.rules).safeParse(merged);
    if (result.success) slices[check.id] = result.data as Record<string, unknown>;
    else problems.push(...problemsOf(result.error).map((p) => `checks.${check.id}.${p}`));
  }
  if (problems.length) throw invalid(problems);
  const ruleSet: RuleSet = {
    profile: profile.name,
    shared: { maxPointsPerCheck: given.shared?.maxPointsPerCheck ?? DEFAULT_MAX_POINTS_PER_CHECK },
    checks: slices,
  };
  return { ruleSet, slices };
}
