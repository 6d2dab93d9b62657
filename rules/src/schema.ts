/**
 * The rule set: the union of the registered checks' rule slices plus a few
 * settings shared by all checks. As a rule file, a configuration's `rules`
 * or a REST body spells it (every field optional):
 *
 *   { "profile": "tr101290",
 *     "shared": { "maxPointsPerCheck": 50000, "disabledChecks": ["klv-packet-rate-consistency"] },
 *     "checks": { "mpegts-pcr-intervals": { "maxIntervalMs": 40 } } }
 *
 * Strict: a key that is not a registered check, a rule of that check or a
 * shared setting is refused, with its path. The schema fills the checks' own
 * defaults; applying a profile between those defaults and the user's values
 * is resolveRuleSet's job (resolve-rule-set.ts).
 */
import * as z from 'zod/mini';
import type { $ZodObject, $ZodType } from 'zod/v4/core';
import { CoreError, DEFAULT_MAX_POINTS_PER_CHECK, ensureEnglishZodMessages, type AnyCheck, type RulesSchema } from '@klvscope/core';
import { PROFILE_NAMES } from './profiles.js';
import type { KeysAt } from './rule-problems.js';

/** Settings set once for every check of a run. */
export interface SharedSettings {
  /** Points kept per check and run; the check's summary still counts every point. */
  maxPointsPerCheck: number;
  /** Ids of registered checks that do not run. */
  disabledChecks: string[];
}

/** Rule slices by check id, each the check's rules with every option filled. */
export type RuleSlices = Record<string, Record<string, unknown>>;

/** A rule set as given: any part may be left out. */
export interface RuleSetInput {
  profile?: string;
  shared?: Partial<SharedSettings>;
  checks?: Record<string, Record<string, unknown>>;
}

/** The effective rule set: the profile applied, every setting and every rule of every registered check filled. Its JSON is what `klvscope rules print --json` shows, and it is valid input again. */
export interface RuleSet {
  profile: string;
  shared: SharedSettings;
  checks: RuleSlices;
}

/** What buildRuleSetSchema's schema gives: the checks' own defaults filled, no profile applied yet. */
export type RuleSetSchemaOutput = Omit<RuleSet, 'profile'> & { profile?: string };

export const DEFAULT_SHARED_SETTINGS: Readonly<SharedSettings> = Object.freeze({
  maxPointsPerCheck: DEFAULT_MAX_POINTS_PER_CHECK,
  disabledChecks: Object.freeze([]) as unknown as string[],
});

/** The shared settings' names with what each does, for problems and for printing. */
export const SHARED_SETTING_DESCRIPTIONS: Readonly<Record<keyof SharedSettings, string>> = Object.freeze({
  maxPointsPerCheck: 'points kept per check and run; the summary counts them all',
  disabledChecks: 'registered checks that do not run',
});

function sharedSchema(checkIds: readonly string[]) {
  return z.strictObject({
    maxPointsPerCheck: z._default(
      z.number().check(z.int(), z.positive(), z.describe(SHARED_SETTING_DESCRIPTIONS.maxPointsPerCheck)),
      DEFAULT_SHARED_SETTINGS.maxPointsPerCheck,
    ),
    disabledChecks: z.pipe(
      z._default(z.array(z.enum(checkIds as [string, ...string[]])).check(z.describe(SHARED_SETTING_DESCRIPTIONS.disabledChecks)), []),
      // One entry per check, in the order given: naming a check twice is not an error.
      z.transform((ids: string[]) => [...new Set(ids)]),
    ),
  });
}

/**
 * The rule set's schema for these checks. Parsing gives every shared setting
 * and every rule of every check, filled from the checks' own defaults, and
 * `profile` only if given. Throws CoreError ERR_CHECK_DUPLICATE when two
 * checks share an id.
 */
export function buildRuleSetSchema(checks: readonly AnyCheck[]): z.ZodMiniType<RuleSetSchemaOutput, RuleSetInput> {
  ensureEnglishZodMessages();
  const ids = checkIdsOf(checks);
  const slices = Object.fromEntries(checks.map((check) => [check.id, z.prefault(sliceSchema(check), {})]));
  return z.strictObject({
    profile: z.optional(z.enum(PROFILE_NAMES as [string, ...string[]])),
    shared: z.prefault(sharedSchema(ids), {}),
    checks: z.prefault(z.strictObject(slices), {}),
  }) as unknown as z.ZodMiniType<RuleSetSchemaOutput, RuleSetInput>;
}

function checkIdsOf(checks: readonly AnyCheck[]): string[] {
  const seen = new Set<string>();
  for (const check of checks) {
    if (seen.has(check.id)) throw new CoreError('ERR_CHECK_DUPLICATE', `check '${check.id}' is given twice`, { checkId: check.id });
    seen.add(check.id);
  }
  return [...seen];
}

/**
 * A check's slice as the rule set validates it: the check's own schema,
 * refusing keys it does not know. A zod 4 object, built with `zod` or
 * `zod/mini`, keeps its refinements (the same object with a `never`
 * catchall, as classic `.strict()` makes it, rather than a new object from
 * its shape); any other schema (zod 3 in a team's plugin, a record) is run as
 * it is, through an adapter that reports its issues and the keys its
 * defaults do not have.
 */
export function sliceSchema(check: AnyCheck): RulesSchema {
  ensureEnglishZodMessages();
  const rules: RulesSchema = check.rules;
  // z.catchall clones through the schema's own class: a classic object stays classic.
  if (isZodObject(rules)) return z.catchall(rules as unknown as z.ZodMiniObject, z.never());
  return foreignSlice(rules);
}

function foreignSlice(rules: RulesSchema): RulesSchema {
  // Every rule has a default, so the keys of the defaults are the rule names.
  const defaults: unknown = rules.safeParse({}).data;
  const known = isPlainObject(defaults) ? new Set(Object.keys(defaults)) : null;
  return z.pipe(
    z.unknown(),
    z.transform((value, payload) => {
      const parsed = rules.safeParse(value === undefined ? {} : value);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) payload.issues.push({ code: 'custom', message: issue.message, path: [...issue.path], input: value });
      }
      const unknown = known !== null && isPlainObject(value) ? Object.keys(value).filter((key) => !known.has(key)) : [];
      if (unknown.length > 0) payload.issues.push({ code: 'unrecognized_keys', keys: unknown, input: value as Record<string, unknown> });
      return parsed.success && unknown.length === 0 ? parsed.data : z.NEVER;
    }),
  );
}

/** Whether a slice is a zod 4 object: classic and mini schemas alike keep what they are in `_zod.def` (a zod 3 slice has no `_zod`). */
function isZodObject(rules: RulesSchema): rules is RulesSchema & $ZodObject {
  return '_zod' in rules && rules._zod.def.type === 'object';
}

/** The fields of a slice that is a zod 4 object, by rule name; null for any other slice. */
export function sliceShape(rules: RulesSchema): Readonly<Record<string, $ZodType>> | null {
  return isZodObject(rules) ? rules._zod.def.shape : null;
}

/** The schema types that wrap a field without changing what it describes. */
const WRAPPER_TYPES: ReadonlySet<string> = new Set(['default', 'prefault', 'nullable', 'optional']);

/**
 * A field's description, from classic zod's `.describe(text)` or zod/mini's
 * `.check(z.describe(text))`: both register `{ description }` in zod's global
 * registry, but on the schema they are called on, which for a rule with a
 * default is the outer `.default()` in classic zod and typically the inner
 * schema in `z._default(inner, value)` with zod/mini. So the first found from
 * the outside in, through default, prefault, nullable and optional wrappers.
 */
export function fieldDescription(field: $ZodType): string | null {
  for (let schema: $ZodType | undefined = field; schema !== undefined; ) {
    const description = z.globalRegistry.get(schema)?.description;
    if (description !== undefined) return description;
    const def = schema._zod.def as { type: string; innerType?: $ZodType };
    schema = WRAPPER_TYPES.has(def.type) ? def.innerType : undefined;
  }
  return null;
}

/** The rule names of a check: the keys of its defaults (every rule has one), or null when its slice is not an object. */
export function ruleNamesOf(check: AnyCheck): string[] | null {
  const parsed = check.rules.safeParse({});
  return parsed.success && isPlainObject(parsed.data) ? Object.keys(parsed.data) : null;
}

/** What the keys at a path of the rule set are, for "unknown key" problems. */
export function ruleSetKeysAt(checks: readonly AnyCheck[]): (path: readonly PropertyKey[]) => KeysAt {
  return (path) => {
    if (path.length === 0) return { noun: 'field', known: ['profile', 'shared', 'checks'] };
    if (path[0] === 'shared' && path.length === 1) return { noun: 'shared setting', known: Object.keys(SHARED_SETTING_DESCRIPTIONS) };
    if (path[0] === 'checks' && path.length === 1) return { noun: 'check', known: checks.map((check) => check.id) };
    if (path[0] === 'checks' && path.length === 2) {
      const check = checks.find((candidate) => candidate.id === path[1]);
      return { noun: 'rule', known: check ? ruleNamesOf(check) : null };
    }
    return { noun: 'key', known: null };
  };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
