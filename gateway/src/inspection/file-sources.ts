/**
 * Recorded files as the file workflow's byte sources (the file adapter). Its
 * own module so the CLI's `inspect --store` gets it without loading the
 * service's modules.
 */
import type { FileSourceOpener } from '@klvscope/core/workflow';
import { fileSize, readFileChunks, readFileChunksForInspection, type InspectionReadOptions } from '@klvscope/adapters';

export const fileSources: FileSourceOpener = {
  size: fileSize,
  // In shared memory: a new file's hash reads the pass's chunks instead of the file (hash-while-reading.ts).
  open: (path, { signal }) => readFileChunks(path, { signal, sharedMemory: true }),
};

/** The same, read on `threads` threads in all (parallel-file-chunks.ts); one thread is `fileSources`. */
export function fileSourcesOnThreads(options: Pick<InspectionReadOptions, 'threads' | 'minParallelBytes' | 'splitAt'>): FileSourceOpener {
  if (options.threads <= 1) return fileSources;
  return { size: fileSize, open: (path, { signal }) => readFileChunksForInspection(path, { ...options, signal }) };
}
