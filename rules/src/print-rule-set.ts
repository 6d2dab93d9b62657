/**
 * The effective rule set as text for people (`klvscope rules print`): every
 * shared setting and every rule of every check, each with where its value
 * comes from. A value equal to the profile's carries the profile's citation;
 * one the user changed says so and shows what it replaced; one no profile
 * names is the check's own default, with the check's description of it. The
 * JSON form is the RuleSet itself.
 */
import type { AnyCheck } from '@klvscope/core';
import { getProfile } from './profiles.js';
import type { RuleProfile } from './rule-profile.js';
import { DEFAULT_SHARED_SETTINGS, SHARED_SETTING_DESCRIPTIONS, fieldDescription, isPlainObject, sliceShape, type RuleSet, type SharedSettings } from './schema.js';

/**
 * `ruleSet` as text. `checks` gives titles, defaults and descriptions (the
 * rule set alone cannot tell a user's value from a check default); `profile`
 * defaults to the one the rule set names.
 */
export function printRuleSet(ruleSet: RuleSet, checks: readonly AnyCheck[], profile: RuleProfile = getProfile(ruleSet.profile)): string {
  const lines = [`profile: ${profile.name} — ${profile.title}`, 'each value: check default < profile < user value, with its source', '', 'shared'];
  for (const key of Object.keys(SHARED_SETTING_DESCRIPTIONS) as (keyof SharedSettings)[]) {
    const value = ruleSet.shared[key];
    const fallback = DEFAULT_SHARED_SETTINGS[key];
    const source = sameValue(value, fallback) ? `default: ${SHARED_SETTING_DESCRIPTIONS[key]}` : `user value (default ${show(fallback)}): ${SHARED_SETTING_DESCRIPTIONS[key]}`;
    lines.push(ruleLine(key, value, source));
  }
  const disabled = new Set(ruleSet.shared.disabledChecks);
  for (const [id, slice] of Object.entries(ruleSet.checks)) {
    const check = checks.find((candidate) => candidate.id === id);
    const rules = Object.entries(slice);
    const notes = [check ? null : 'not registered', disabled.has(id) ? 'disabled' : null, rules.length === 0 ? 'no rules' : null].filter((note) => note !== null);
    lines.push('', `${id}${check ? `: ${check.title}` : ''}${notes.length > 0 ? `  (${notes.join(', ')})` : ''}`);
    const defaults = check ? checkDefaults(check) : null;
    for (const [rule, value] of rules) lines.push(ruleLine(rule, value, sourceOf(profile, id, rule, value, check, defaults)));
  }
  return lines.join('\n');
}

function ruleLine(key: string, value: unknown, source: string | null): string {
  return `  ${key} = ${show(value)}${source === null ? '' : `    # ${source}`}`;
}

function sourceOf(profile: RuleProfile, id: string, rule: string, value: unknown, check: AnyCheck | undefined, defaults: Record<string, unknown> | null): string | null {
  const cited = profile.checks[id]?.[rule];
  if (cited !== undefined) {
    return sameValue(value, cited.value) ? cited.citation : `user value; profile ${profile.name}: ${show(cited.value)} (${cited.citation})`;
  }
  if (check === undefined || defaults === null || !Object.hasOwn(defaults, rule)) return null;
  if (!sameValue(value, defaults[rule])) return `user value; check default ${show(defaults[rule])}`;
  const description = describeRule(check, rule);
  return description === null ? 'check default' : `check default: ${description}`;
}

function checkDefaults(check: AnyCheck): Record<string, unknown> | null {
  const parsed = check.rules.safeParse({});
  return parsed.success && isPlainObject(parsed.data) ? parsed.data : null;
}

/** The description a check gave a rule, if its slice is a zod 4 object (built with `zod` or `zod/mini`). */
function describeRule(check: AnyCheck, rule: string): string | null {
  const shape = sliceShape(check.rules);
  const field = shape !== null && Object.hasOwn(shape, rule) ? shape[rule] : undefined;
  return field === undefined ? null : fieldDescription(field);
}

function show(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

/** Equality of plain data (numbers, strings, booleans, null, arrays, objects). */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]));
  }
  return false;
}
