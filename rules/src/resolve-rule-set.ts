/**
 * From a rule set as given to the effective one: for every rule of every
 * registered check, the user's value if given, else the profile's, else the
 * check's own default (defaults < profile < user). Validation happens once,
 * over the layered input, so every problem is reported together, each with
 * its path.
 */
import type { AnyCheck } from '@klvscope/core';
import { DEFAULT_PROFILE, getProfile, PROFILE_NAMES } from './profiles.js';
import type { RuleProfile } from './rule-profile.js';
import { describeIssue, type RuleIssue } from './rule-problems.js';
import { RulesError } from './rules-error.js';
import { buildRuleSetSchema, isPlainObject, ruleSetKeysAt, sliceSchema, type RuleSet, type RuleSlices } from './schema.js';

export interface ResolveOptions {
  /** The profile to apply, over the one the input names (a `--profile` option, a profile picked in a UI). */
  profile?: string;
}

export interface ResolvedRules {
  ruleSet: RuleSet;
  /** The rule slices a run takes (CheckSession's `rules`), by check id: `ruleSet.checks`. */
  slices: RuleSlices;
  /** The checks to run: every registered check, in the order given, less `shared.disabledChecks`. */
  enabledCheckIds: string[];
}

/**
 * The effective rule set of `input` (undefined: nothing configured) for
 * these checks. Throws RulesError ERR_RULES_INVALID listing every problem
 * with its path, ERR_PROFILE_UNKNOWN for an unknown `options.profile`, and
 * ERR_PROFILE_INVALID when the profile names a rule a registered check lacks.
 */
export function resolveRuleSet(checks: readonly AnyCheck[], input?: unknown, options: ResolveOptions = {}): ResolvedRules {
  const schema = buildRuleSetSchema(checks);
  const profile = getProfile(options.profile ?? profileNamedBy(input) ?? DEFAULT_PROFILE);
  assertProfileFits(profile, checks);
  const parsed = schema.safeParse(layerProfile(input === undefined ? {} : input, profile, checks), { reportInput: true });
  if (!parsed.success) throw invalidRuleSet(parsed.error.issues, checks);
  const ruleSet: RuleSet = { profile: profile.name, shared: parsed.data.shared, checks: parsed.data.checks };
  const disabled = new Set(ruleSet.shared.disabledChecks);
  return { ruleSet, slices: ruleSet.checks, enabledCheckIds: checks.map((check) => check.id).filter((id) => !disabled.has(id)) };
}

/** The input's profile when it names a known one; an unknown name is left for the schema to report with the other problems. */
function profileNamedBy(input: unknown): string | undefined {
  if (!isPlainObject(input) || typeof input.profile !== 'string') return undefined;
  return PROFILE_NAMES.includes(input.profile) ? input.profile : undefined;
}

/**
 * The input with the profile's values under the user's, per check and per
 * rule. A part that is not an object is left as it is: the schema reports it.
 * Profile values are copied, so no output shares an array with the profile.
 */
function layerProfile(input: unknown, profile: RuleProfile, checks: readonly AnyCheck[]): unknown {
  if (!isPlainObject(input)) return input;
  const given = input.checks;
  if (given !== undefined && !isPlainObject(given)) return input;
  const layered: Record<string, unknown> = { ...given };
  for (const check of checks) {
    const cited = profile.checks[check.id];
    if (cited === undefined) continue;
    const fromProfile = structuredClone(Object.fromEntries(Object.entries(cited).map(([rule, entry]) => [rule, entry.value])));
    const user = layered[check.id];
    if (user === undefined) layered[check.id] = fromProfile;
    // A rule given as undefined (possible from JavaScript, not from JSON) is not given.
    else if (isPlainObject(user)) layered[check.id] = { ...fromProfile, ...Object.fromEntries(Object.entries(user).filter(([, value]) => value !== undefined)) };
  }
  return { ...input, checks: layered };
}

function invalidRuleSet(issues: readonly RuleIssue[], checks: readonly AnyCheck[]): RulesError {
  const keysAt = ruleSetKeysAt(checks);
  const problems = issues.flatMap((issue) => describeIssue(issue, keysAt));
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return new RulesError('ERR_RULES_INVALID', `invalid rule set (${count}): ${problems.join('; ')}`, problems);
}

/**
 * What is wrong with a profile against these checks: a rule the check does
 * not have, a value the check refuses, an entry without a citation. Entries
 * for checks that are not registered are ignored (a run may register only
 * some checks, or a profile may name a check a plugin brings).
 */
export function profileProblems(profile: RuleProfile, checks: readonly AnyCheck[]): string[] {
  const keysAt = ruleSetKeysAt(checks);
  const problems: string[] = [];
  for (const check of checks) {
    const cited = profile.checks[check.id];
    if (cited === undefined) continue;
    for (const [rule, entry] of Object.entries(cited)) {
      if (typeof entry.citation !== 'string' || entry.citation.trim() === '') problems.push(`checks.${check.id}.${rule}: no citation`);
    }
    const values = Object.fromEntries(Object.entries(cited).map(([rule, entry]) => [rule, entry.value]));
    const parsed = sliceSchema(check).safeParse(values, { reportInput: true });
    if (parsed.success) continue;
    for (const issue of parsed.error.issues) problems.push(...describeIssue({ ...issue, path: ['checks', check.id, ...issue.path] }, keysAt));
  }
  return problems;
}

function assertProfileFits(profile: RuleProfile, checks: readonly AnyCheck[]): void {
  const problems = profileProblems(profile, checks);
  if (problems.length === 0) return;
  throw new RulesError('ERR_PROFILE_INVALID', `rule profile '${profile.name}' does not fit the registered checks: ${problems.join('; ')}`, problems, { profile: profile.name });
}
