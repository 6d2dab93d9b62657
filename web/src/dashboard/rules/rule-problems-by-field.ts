/**
 * The service's refusal of a rule set (422 ERR_RULES_INVALID) lists every
 * problem as `path: what` (`checks.mpegts-pcr-intervals.maxIntervalMs:
 * expected a positive number, got -5`; docs/rest.md). The form shows each at
 * its field: problems by field key, and those no field has (an unknown
 * check, the set as a whole) apart.
 */
import { ApiError } from '../api-client.js';

export interface ProblemsByField {
  byField: Map<string, string[]>;
  elsewhere: string[];
}

export function problemsByField(error: unknown, fieldKeys: ReadonlySet<string>): ProblemsByField {
  const byField = new Map<string, string[]>();
  const elsewhere: string[] = [];
  for (const problem of problemsOf(error)) {
    const split = problem.indexOf(': ');
    // `mandatoryTags[3]` is a problem of the mandatoryTags field.
    const path = split < 0 ? '' : problem.slice(0, split).replace(/\[\d+\]/g, '');
    const what = split < 0 ? problem : problem.slice(split + 2);
    if (fieldKeys.has(path)) byField.set(path, [...(byField.get(path) ?? []), what]);
    else elsewhere.push(problem);
  }
  return { byField, elsewhere };
}

function problemsOf(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [error instanceof Error ? error.message : String(error)];
  const details = error.details as { problems?: unknown; fields?: Array<{ field?: unknown; message?: unknown }> } | undefined;
  if (Array.isArray(details?.problems)) return details.problems.map(String);
  if (Array.isArray(details?.fields)) return details.fields.map((field) => `${String(field.field)}: ${String(field.message)}`);
  return [`${error.message} (${error.code})`];
}
