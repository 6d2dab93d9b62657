/**
 * What a rule profile is: plain data, per check id and per rule, a value and
 * the clause it comes from. A profile sits between the checks' own defaults
 * and the user's values (defaults < profile < user).
 */

/** One threshold of a profile. `citation` names the standard and clause, or says that none gives a value and names the documented default. */
export interface CitedValue {
  readonly value: unknown;
  readonly citation: string;
}

/** Cited values by rule name. */
export type CitedRules = Readonly<Record<string, CitedValue>>;

export interface RuleProfile {
  /** Lower-case letters and digits, as `--profile` and the rule set's `profile` field spell it. */
  readonly name: string;
  readonly title: string;
  /** What the profile is for, and what it takes from where. */
  readonly summary: string;
  /** check id -> rule -> cited value. Entries for checks that are not registered are ignored. */
  readonly checks: Readonly<Record<string, CitedRules>>;
}

/** Shorthand for a profile entry. */
export function cite(value: unknown, citation: string): CitedValue {
  return { value, citation };
}

/** Freezes a profile all the way down, so no run can change a value another run reads. */
export function freezeProfile(profile: RuleProfile): RuleProfile {
  return deepFreeze(profile);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
