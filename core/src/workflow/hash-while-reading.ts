/**
 * A new file's hash, taken from the pass's own chunks where the source reads
 * into shared memory (readFileChunks with `sharedMemory`, the parallel
 * reader): a worker thread hashes each chunk where it lies, so the file is
 * read once, not twice. On this machine the hash's own read of a 2 GB
 * recording costs its thread about 0.5 s of processor time, beside 1.4 s
 * of SHA-256, on a second core the pass's reads and collector also use.
 *
 * Where the chunks are not in shared memory, do not start at offset 0 or do
 * not follow one another, or the pass ends having read another number of
 * bytes than the file's size, the file is hashed as before, by a worker
 * reading it itself (file-hash-worker.ts). The digest is the same either way.
 */
import { Worker } from 'node:worker_threads';
import type { ByteSource, SourceChunk } from '../kernel/pipeline.js';
import { abortError, hashFileInWorker } from './file-hash-worker.js';

/** Hashes the chunks it is posted, in order; counts them in `hashed` (shared memory); posts the digest when told the end. */
const CHUNK_HASH_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hash = createHash('sha256');
const hashed = workerData.hashed;
parentPort.on('message', (message) => {
  if (message.bytes === undefined) {
    parentPort.postMessage(hash.digest('hex'));
    return;
  }
  hash.update(message.bytes);
  Atomics.add(hashed, 0, 1);
  Atomics.notify(hashed, 0);
});
`;

/** Atomics.waitAsync (Node 16 on; TypeScript declares it from its ES2024 library, which this project does not use). */
const atomics = Atomics as unknown as { waitAsync(cells: Int32Array, index: number, value: number): { async: boolean; value: Promise<string> | string } };

export class HashWhileReading {
  #worker: Worker | null = null;
  /** Chunks hashed so far, counted by the worker. */
  readonly #hashed = new Int32Array(new SharedArrayBuffer(4));
  #posted = 0;
  #bytes = 0;
  /** Cleared when the chunks cannot be hashed where they lie (the file is then read again), or the hash failed or was aborted. */
  #takingChunks = true;
  #failure: Error | null = null;
  #digest: Promise<string> | null = null;

  constructor(
    private readonly path: string,
    private readonly size: number,
    private readonly signal: AbortSignal,
  ) {
    signal.addEventListener('abort', () => this.#stopWorker(), { once: true });
  }

  /** The source's chunks, handed on as they come; each is hashed before the next is asked for (its memory may then be reused). */
  async *through(source: ByteSource): AsyncGenerator<Uint8Array | SourceChunk, void, undefined> {
    for await (const chunk of source) {
      this.#take(chunk);
      yield chunk;
      await this.#caughtUp();
    }
  }

  /** The file's SHA-256 in lower-case hex, once the pass has read it; rejects when the hash failed or was aborted. */
  digest(): Promise<string> {
    this.#digest ??= this.#finish();
    return this.#digest;
  }

  #take(chunk: Uint8Array | SourceChunk): void {
    if (!this.#takingChunks) return;
    const bytes = chunk instanceof Uint8Array ? chunk : chunk.bytes;
    const offset = chunk instanceof Uint8Array ? this.#bytes : chunk.offset;
    if (!(bytes.buffer instanceof SharedArrayBuffer) || offset !== this.#bytes) {
      this.#stopWorker();
      return;
    }
    this.#worker ??= this.#startWorker();
    this.#worker.postMessage({ bytes });
    this.#posted++;
    this.#bytes += bytes.length;
  }

  /** Waits until the worker has hashed every chunk posted (or has failed). */
  async #caughtUp(): Promise<void> {
    for (let hashed = Atomics.load(this.#hashed, 0); hashed < this.#posted && this.#worker !== null; hashed = Atomics.load(this.#hashed, 0)) {
      const wait = atomics.waitAsync(this.#hashed, 0, hashed);
      if (wait.async) await wait.value;
    }
  }

  #startWorker(): Worker {
    const worker = new Worker(CHUNK_HASH_WORKER_SOURCE, { eval: true, workerData: { hashed: this.#hashed } });
    worker.once('error', (error) => {
      this.#failure ??= error;
      this.#stopWorker();
    });
    return worker;
  }

  /** Ends the worker and wakes whoever waits for it: the chunks are not hashed from then on. */
  #stopWorker(): void {
    this.#takingChunks = false;
    const worker = this.#worker;
    this.#worker = null;
    if (worker === null) return;
    void worker.terminate();
    Atomics.notify(this.#hashed, 0);
  }

  async #finish(): Promise<string> {
    this.signal.throwIfAborted();
    if (this.#failure !== null) throw this.#failure;
    const worker = this.#worker;
    if (!this.#takingChunks || worker === null || this.#bytes !== this.size) {
      this.#stopWorker();
      return hashFileInWorker(this.path, this.signal);
    }
    return new Promise<string>((resolve, reject) => {
      const onAbort = (): void => reject(abortError(this.signal));
      this.signal.addEventListener('abort', onAbort, { once: true });
      worker.once('message', (digest: string) => {
        this.signal.removeEventListener('abort', onAbort);
        this.#stopWorker();
        resolve(digest);
      });
      // A worker that fails ends too (its error is kept as #failure): 'exit' says so.
      worker.once('exit', () => reject(this.#failure ?? new Error(`the hash of ${this.path} stopped before it finished`)));
      worker.postMessage({});
    });
  }
}
