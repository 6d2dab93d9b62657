/**
 * hashFile's digest computed on a worker thread, which reads the file
 * itself: beside a pass over the same file on the main thread, the hash
 * (SHA-256 at ~1.7 GB/s on the reference machine: a second of a 2 GB
 * recording) then costs the pass almost no time on a machine with a second
 * core. The worker's code is a string (`eval`), so that it runs the same
 * from the sources, the built packages and the CLI's bundle.
 */
import { Worker } from 'node:worker_threads';

const READ_CHUNK_BYTES = 1024 * 1024;

const HASH_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { closeSync, openSync, readSync } = require('node:fs');
const hash = createHash('sha256');
const chunk = Buffer.allocUnsafe(${READ_CHUNK_BYTES});
const fd = openSync(workerData.path, 'r');
try {
  for (let read; (read = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) hash.update(read === chunk.length ? chunk : chunk.subarray(0, read));
} finally {
  closeSync(fd);
}
parentPort.postMessage(hash.digest('hex'));
`;

/**
 * The SHA-256 digest of the file's content in lower-case hex, as hashFile
 * gives it. Aborting the signal stops the worker; the promise then rejects
 * with the signal's reason.
 */
export function hashFileInWorker(path: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const worker = new Worker(HASH_WORKER_SOURCE, { eval: true, workerData: { path } });
    const onAbort = (): void => {
      void worker.terminate();
      reject(abortError(signal as AbortSignal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (): void => signal?.removeEventListener('abort', onAbort);
    worker.once('message', (digest: string) => {
      settle();
      resolve(digest);
    });
    worker.once('error', (error) => {
      settle();
      reject(error);
    });
    // Exiting without a digest (terminated from outside): nothing else will settle the promise.
    worker.once('exit', () => {
      settle();
      reject(new Error(`the hash of ${path} stopped before it finished`));
    });
  });
}

/** The signal's reason as an Error (AbortSignal.abort() gives one; abort(value) may not). */
export function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError');
}
