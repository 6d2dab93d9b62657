/**
 * Recorded files as the file workflow's byte sources (the file adapter). Its
 * own module so the CLI's `inspect --store` gets it without loading the
 * service's modules.
 */
import type { FileSourceOpener } from '@klvscope/core/workflow';
import { fileSize, readFileChunks } from '@klvscope/adapters';

export const fileSources: FileSourceOpener = {
  size: fileSize,
  open: (path, { signal }) => readFileChunks(path, { signal }),
};
