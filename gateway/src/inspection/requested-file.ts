/**
 * The recorded file a request names by `filePath`: confined to the browse
 * roots (403 outside them, whether it exists or not), then required to be a
 * regular file (422 ERR_FILE_NOT_FOUND or ERR_NOT_A_FILE) before any work is
 * queued for it, so a job is never accepted for a file that cannot be read.
 */
import * as z from 'zod/mini';
import { confineToRoots, type PathField } from './browse-roots.js';
import type { InspectionDeps } from './inspection-deps.js';

/** The body of the endpoints that take a file: `{ "filePath": "/abs/path.ts" }`. */
export const filePathBodySchema = z.strictObject({
  /** Absolute path of a recorded file inside a browse root. */
  filePath: z.string(),
});

export interface RequestedFile {
  /** The path resolved (links followed): what the workflow opens and records. */
  path: string;
  size: number;
}

export async function requestedFile(
  deps: Pick<InspectionDeps, 'settings' | 'files'>,
  filePath: string,
  /** Where the path came from (confineToRoots's default: the body's `filePath`). */
  field?: PathField,
): Promise<RequestedFile> {
  const { path } = await confineToRoots(filePath, deps.settings.current().browseRoots, field);
  // The file adapter's stat: AdapterError ERR_FILE_NOT_FOUND, ERR_NOT_A_FILE or ERR_FILE_UNREADABLE, each 422.
  const size = await deps.files.size(path);
  return { path, size };
}
