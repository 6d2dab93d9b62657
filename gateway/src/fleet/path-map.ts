/**
 * `--path-map FROM=TO`: where a worker's mounts differ from the enqueuer's,
 * a recording queued as FROM/x.ts is read at TO/x.ts. The first prefix that
 * matches at a path-segment boundary wins; the catalog keeps the queued path.
 */
import { UsageError } from '../cli/usage-error.js';

export interface PathMapping {
  from: string;
  to: string;
}

export function parsePathMapping(text: string): PathMapping {
  const at = text.indexOf('=');
  if (at <= 0 || at === text.length - 1) throw new UsageError(`--path-map takes FROM=TO (two folders), got '${text}'`);
  return { from: trimSlash(text.slice(0, at)), to: trimSlash(text.slice(at + 1)) };
}

export function mapPath(path: string, mappings: readonly PathMapping[]): string {
  for (const { from, to } of mappings) {
    if (path === from) return to;
    if (path.startsWith(`${from}/`)) return `${to}${path.slice(from.length)}`;
  }
  return path;
}

function trimSlash(folder: string): string {
  return folder.length > 1 && folder.endsWith('/') ? folder.slice(0, -1) : folder;
}
