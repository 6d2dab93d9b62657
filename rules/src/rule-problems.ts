/**
 * Validation issues as one line each, `path: what was expected, got what`
 * (`checks.mpegts-pcr-intervals.maxIntervalMs: expected a positive number,
 * got -5`), so a user can find the offending value in a rule file without
 * knowing zod. Reads the issue fields zod 4 reports (code, path, input and
 * the code's own fields); an issue of another shape keeps its own message.
 */

/** A validation issue, as zod 4 reports it with `reportInput: true`; the fields of each code are read by name. */
export interface RuleIssue {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly input?: unknown;
}

/** An issue's own fields by name (`keys`, `minimum`, `values`, ...). */
type IssueFields = RuleIssue & Readonly<Record<string, unknown>>;

/** What the keys at a path are called and which are allowed, for "unknown key" problems. */
export interface KeysAt {
  /** 'check', 'rule', 'shared setting', ... */
  readonly noun: string;
  /** The keys allowed there, or null when they cannot be listed. */
  readonly known: readonly string[] | null;
}

/** `checks.klv-mandatory-field-errors.mandatoryTags[3]`; the empty path is the rule set itself. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text === '' ? '(rule set)' : text;
}

/**
 * The problems one issue stands for: one line, or one per key for an
 * "unknown keys" issue, each naming the key's own path.
 */
export function describeIssue(given: RuleIssue, keysAt: (path: readonly PropertyKey[]) => KeysAt): string[] {
  const issue = given as IssueFields;
  if (issue.code === 'unrecognized_keys' && Array.isArray(issue.keys)) {
    const { noun, known } = keysAt(issue.path);
    const allowed = known === null ? '' : known.length === 0 ? ' (none allowed here)' : ` (known: ${known.join(', ')})`;
    return (issue.keys as unknown[]).map((key) => `${formatPath([...issue.path, String(key)])}: unknown ${noun}${allowed}`);
  }
  return [`${formatPath(issue.path)}: ${describeProblem(issue)}`];
}

function describeProblem(issue: IssueFields): string {
  const got = 'input' in issue ? `, got ${showValue(issue.input)}` : '';
  switch (issue.code) {
    case 'invalid_type':
      if ('input' in issue && issue.input === undefined) return `missing: expected ${expectedType(issue.expected)}`;
      return `expected ${expectedType(issue.expected)}${got}`;
    case 'too_small':
      return `expected ${bound(issue, 'min')}${got}`;
    case 'too_big':
      return `expected ${bound(issue, 'max')}${got}`;
    case 'invalid_value':
      return `expected ${oneOf(issue.values)}${got}`;
    case 'not_multiple_of':
      return `expected a multiple of ${String(issue.divisor)}${got}`;
    case 'invalid_format':
      return `expected the ${String(issue.format)} format${got}`;
    default:
      // A refinement's or a foreign schema's own words; its input is often the whole slice, so it is not shown.
      return issue.message;
  }
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  number: 'a number',
  int: 'an integer',
  string: 'a string',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

function expectedType(expected: unknown): string {
  return TYPE_NAMES[String(expected)] ?? String(expected);
}

/** "a positive number", "a number >= 1", "at least 1 item", "at most 100 characters". */
function bound(issue: IssueFields, side: 'min' | 'max'): string {
  const limit = Number(side === 'min' ? issue.minimum : issue.maximum);
  const inclusive = issue.inclusive !== false;
  const origin = String(issue.origin);
  if (origin === 'number' || origin === 'int' || origin === 'bigint') {
    const noun = origin === 'int' ? 'integer' : 'number';
    if (limit === 0 && side === 'min') return inclusive ? `a ${noun} >= 0` : `a positive ${noun}`;
    if (limit === 0 && side === 'max') return inclusive ? `a ${noun} <= 0` : `a negative ${noun}`;
    return `a ${noun} ${side === 'min' ? (inclusive ? '>=' : '>') : inclusive ? '<=' : '<'} ${limit}`;
  }
  const unit = origin === 'string' ? 'character' : 'item';
  const count = inclusive ? limit : side === 'min' ? limit + 1 : limit - 1;
  const plural = count === 1 ? unit : `${unit}s`;
  if (issue.exact === true) return `exactly ${count} ${plural}`;
  return `${side === 'min' ? 'at least' : 'at most'} ${count} ${plural}`;
}

function oneOf(values: unknown): string {
  const list = Array.isArray(values) ? (values as unknown[]) : [];
  if (list.length === 1) return showValue(list[0]);
  return `one of ${list.map(showValue).join(', ')}`;
}

const MAX_SHOWN = 60;

/** A value as a rule file spells it: JSON, shortened past 60 characters. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'function' || typeof value === 'symbol') return typeof value;
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 3)}...` : text;
}
