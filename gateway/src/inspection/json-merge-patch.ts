/**
 * JSON Merge Patch (RFC 7396): an object patch merges key by key, `null`
 * deletes a key, anything else (arrays included) replaces. The settings use
 * it so a PATCH says only what changes, and `null` gives a value back to its
 * default.
 */

export type JsonObject = { [key: string]: unknown };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return patch;
  const base = isJsonObject(target) ? target : {};
  const entries = new Map<string, unknown>(Object.entries(base));
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) entries.delete(key);
    else entries.set(key, applyMergePatch(entries.get(key), value));
  }
  // fromEntries defines own properties: a '__proto__' key stays a key (and a schema refuses it), never a prototype.
  return Object.fromEntries(entries);
}

/** Drops objects left empty by deletions, so a reset leaves no trace. */
export function withoutEmptyObjects(value: unknown): unknown {
  if (!isJsonObject(value)) return value;
  const kept: Array<[string, unknown]> = [];
  for (const [key, child] of Object.entries(value)) {
    const pruned = withoutEmptyObjects(child);
    if (!(isJsonObject(pruned) && Object.keys(pruned).length === 0)) kept.push([key, pruned]);
  }
  return Object.fromEntries(kept);
}
