/**
 * The rule set being edited: the current set as the user gave it (GET
 * /validation-rules `current`), with the form's changes. A field left alone
 * is not in it, so it keeps following the profile and the check's default;
 * `withValue(draft, path, undefined)` takes a field back out. Never changed
 * in place: each edit answers a new draft.
 */

export type RuleSetDraft = Record<string, unknown>;

export function valueAt(draft: RuleSetDraft, path: readonly string[]): unknown {
  let node: unknown = draft;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

export function withValue(draft: RuleSetDraft, path: readonly string[], value: unknown): RuleSetDraft {
  const [key, ...rest] = path;
  const copy: RuleSetDraft = { ...draft };
  if (rest.length === 0) {
    if (value === undefined) delete copy[key];
    else copy[key] = value;
    return copy;
  }
  const child = copy[key];
  const next = withValue(typeof child === 'object' && child !== null && !Array.isArray(child) ? (child as RuleSetDraft) : {}, rest, value);
  // An emptied section goes too: `{"checks":{}}` says nothing `{}` does not.
  if (Object.keys(next).length === 0) delete copy[key];
  else copy[key] = next;
  return copy;
}
