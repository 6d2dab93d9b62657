/**
 * Every path a request names is confined to the configured browse roots:
 * resolved to an absolute path, `..` and symbolic links followed (realpath),
 * then required to lie inside a root (itself resolved the same way). A path
 * with a NUL byte or longer than the system allows is refused before the
 * file system sees it. Nothing is read here but the path's own metadata.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { InspectionError } from './inspection-error.js';
import { invalidFields, type FieldProblem } from '../http/request-validation.js';

/** Longer paths are refused outright (PATH_MAX on Linux). */
export const MAX_PATH_LENGTH = 4096;

export interface ConfinedPath {
  /** The path as resolved (links followed): what to open. */
  path: string;
  /** The root it lies in (resolved). */
  root: string;
}

/** Where a path came from, for a 400 that names the field. */
export type PathField = Pick<FieldProblem, 'in' | 'field'>;

/**
 * The configured roots, each resolved when a path first reaches it and then
 * remembered: a listing confines every link among its entries against the
 * same roots. Resolved in order and on demand, as one confinement alone
 * would: a root after the one a path lies in is never resolved, so an
 * unreadable root fails only the paths that reach it.
 */
export class ResolvedRoots {
  private readonly resolving: Array<Promise<string> | undefined> = [];

  constructor(readonly configured: readonly string[]) {}

  resolved(index: number): Promise<string> {
    return (this.resolving[index] ??= realpathOfDeepestExisting(resolve(this.configured[index])));
  }
}

/**
 * `requested` resolved inside one of `roots`. A path that does not exist
 * resolves through its deepest existing folder, so "not found" is only said
 * of paths inside a root (ERR_FILE_NOT_FOUND); anything outside is
 * ERR_FILE_OUTSIDE_ROOTS, whether it exists or not.
 */
export async function confineToRoots(requested: string, roots: readonly string[], field?: PathField): Promise<ConfinedPath> {
  return confineToResolvedRoots(requested, new ResolvedRoots(roots), field);
}

/** As confineToRoots, against roots resolved once for several paths. */
export async function confineToResolvedRoots(
  requested: string,
  roots: ResolvedRoots,
  field: PathField = { in: 'body', field: 'filePath' },
): Promise<ConfinedPath> {
  const invalid = (message: string): InspectionError => invalidFields([{ ...field, message }]);
  if (requested.includes('\0')) throw invalid('a path cannot contain a NUL byte');
  if (requested.length === 0) throw invalid('the path is empty');
  if (requested.length > MAX_PATH_LENGTH) throw invalid(`a path is at most ${MAX_PATH_LENGTH} characters`);
  if (!isAbsolute(requested)) throw invalid('the path must be absolute');
  const path = await realpathOfDeepestExisting(resolve(requested));
  for (let index = 0; index < roots.configured.length; index++) {
    const resolvedRoot = await roots.resolved(index);
    if (isInside(path, resolvedRoot)) return { path, root: resolvedRoot };
  }
  throw new InspectionError('ERR_FILE_OUTSIDE_ROOTS', `${requested} is outside the browse roots`, { path: requested, roots: [...roots.configured] });
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** realpath of the path, or of its deepest existing ancestor with the rest appended (a file yet to be found). */
async function realpathOfDeepestExisting(path: string): Promise<string> {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = await realpath(current);
      return rest.length === 0 ? real : resolve(real, ...rest.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const parent = resolve(current, '..');
      if (parent === current) return path;
      rest.push(current.slice(parent.length).replace(/^[/\\]/, ''));
      current = parent;
    }
  }
}
