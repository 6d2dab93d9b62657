/**
 * Parsing a check's rule slice. The slice given in the configuration is
 * input; the check sees the parsed output, with the schema's defaults filled in.
 */
import type { AnyCheck, RulesSchema } from './define-check.js';
import { CoreError } from './core-error.js';
import { ensureEnglishZodMessages } from './zod-messages.js';

interface RulesIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * The check's rules for a run: `input` (undefined means "not configured")
 * parsed by its schema. Throws CoreError ERR_RULES_INVALID naming the check
 * and every offending option.
 */
export function parseCheckRules(check: AnyCheck, input: unknown): unknown {
  ensureEnglishZodMessages();
  const parsed = check.rules.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issues = describeRulesIssues(parsed.error.issues);
  throw new CoreError('ERR_RULES_INVALID', `invalid rules for check '${check.id}': ${issues.join('; ')}`, { checkId: check.id, issues });
}

/**
 * One line per issue, `path: message`. Reads only `path` and `message`, which
 * zod 3 and zod 4 issues share, so a plugin built with either works.
 */
export function describeRulesIssues(issues: readonly RulesIssue[]): string[] {
  return issues.map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.map(String).join('.')}: ${issue.message}`));
}

/** Whether the schema accepts an empty slice, i.e. every option has a default. */
export function rulesDefaultsProblems(rules: RulesSchema): string[] {
  ensureEnglishZodMessages();
  const parsed = rules.safeParse({});
  return parsed.success ? [] : describeRulesIssues(parsed.error.issues);
}
