/** The effective rule set as text, each value with where it comes from (`klvscope rules print`). */
import { z } from 'zod';
import type { AnyCheck } from '@klvscope/core';
import { getProfile } from './profiles.js';
import type { RuleSet } from './schema.js';

function describeKey(check: AnyCheck, key: string): string | null {
  const schema = check.rules;
  if (!(schema instanceof z.ZodObject)) return null;
  const field = (schema.shape as Record<string, z.ZodType | undefined>)[key];
  return field?.description ?? null;
}

export function printRuleSet(ruleSet: RuleSet, checks: readonly AnyCheck[]): string {
  const profile = getProfile(ruleSet.profile);
  const lines = [`profile: ${profile.name} — ${profile.title}`, `shared.maxPointsPerCheck = ${ruleSet.shared.maxPointsPerCheck}`, ''];
  for (const check of checks) {
    const slice = ruleSet.checks[check.id] ?? {};
    const keys = Object.keys(slice);
    lines.push(`${check.id}${keys.length ? '' : '  (no rules)'}`);
    for (const key of keys) {
      const cited = profile.checks[check.id]?.[key]?.citation ?? describeKey(check, key) ?? 'the check default';
      lines.push(`  ${key} = ${JSON.stringify(slice[key])}    # ${cited}`);
    }
  }
  return lines.join('\n');
}
