/** Node's file streams as the workflow's byte source in core's tests (the file adapter is another package's). */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FileSourceOpener } from '../../src/workflow/file-workflow.js';

export const nodeFiles: FileSourceOpener = {
  size: async (path) => (await stat(path)).size,
  open: (path, { signal }) => createReadStream(path, { highWaterMark: 1 << 20, signal }),
};
