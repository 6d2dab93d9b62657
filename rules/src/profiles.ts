/**
 * The rule profiles klvscope ships, by name. `stanag4609` is the default;
 * `tr101290` holds the DVB measurement guidelines' thresholds. Each value
 * carries its citation (see rule-profile.ts).
 */
import type { RuleProfile } from './rule-profile.js';
import { RulesError } from './rules-error.js';
import { STANAG_4609_PROFILE } from './stanag4609-profile.js';
import { TR_101_290_PROFILE } from './tr101290-profile.js';

export const DEFAULT_PROFILE = STANAG_4609_PROFILE.name;

const PROFILES: readonly RuleProfile[] = Object.freeze([STANAG_4609_PROFILE, TR_101_290_PROFILE]);

/** The profile names, default first. */
export const PROFILE_NAMES: readonly string[] = Object.freeze(PROFILES.map((profile) => profile.name));

/** Every profile, default first. Frozen data: read, do not change. */
export function listProfiles(): readonly RuleProfile[] {
  return PROFILES;
}

/** The profile of that name; RulesError ERR_PROFILE_UNKNOWN naming the known ones otherwise. */
export function getProfile(name: string): RuleProfile {
  const found = PROFILES.find((profile) => profile.name === name);
  if (found) return found;
  throw new RulesError('ERR_PROFILE_UNKNOWN', `unknown rule profile '${name}' (known: ${PROFILE_NAMES.join(', ')})`, [], { profile: name, known: PROFILE_NAMES });
}
