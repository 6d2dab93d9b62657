/**
 * The file source of a parallel inspection: worker threads read the file's
 * chunks and find the runs of plain packets in each (scanPacketRuns), and the
 * chunks come back in file order with their runs. The demuxer on the main
 * thread still reads every byte that can change its state, in order; the runs
 * let it count the rest without visiting them (docs/parallel-inspection.md).
 * So what crosses a chunk boundary (a packet, a PES, a section, a KLV packet,
 * the PSI, the PCR history) is carried by the one demuxer, as in a one-thread
 * read, and the observations are the same.
 *
 * Memory: each worker reads into READS_AHEAD_PER_WORKER buffers of shared
 * memory of its own; a chunk's buffer is read into again only once the
 * consumer has asked for the next chunk.
 */
import { Worker } from 'node:worker_threads';
import { scanPacketRuns, type PacketRuns, type SourceChunk } from '@klvscope/core';
import { AdapterError } from './adapter-error.js';
import { DEFAULT_CHUNK_SIZE, fileSize, readFileChunks } from './file.js';

/**
 * Chunks each worker may read ahead of the consumer, into as many shared buffers of its own.
 * Four rather than two: a worker held up (a page fault, a busy core) does not make the main
 * thread wait, and 16 MiB a worker is little beside the demuxer's state.
 */
const READS_AHEAD_PER_WORKER = 4;

export interface ParallelReadOptions {
  /** Worker threads reading and scanning (at least 1). */
  workers: number;
  /** Bytes per chunk (default 4 MiB). */
  chunkSize?: number;
  /**
   * Byte offsets where a chunk must end, besides every `chunkSize` bytes: lets a test put a
   * boundary inside a PES, a section, a KLV packet or a PCR gap.
   */
  splitAt?: readonly number[];
  signal?: AbortSignal;
  /** Called after each chunk is handed on, with the bytes so far and the file's size. */
  onProgress?: (bytesRead: number, totalBytes: number) => void;
}

interface ChunkAnswer {
  index: number;
  slot: number;
  bytesRead: number;
  runs: PacketRuns | null;
  error?: { code: string | null; message: string };
}

/** Int32 cells of the control memory shared with the workers. */
const CONSUMED = 0;
const STOP = 1;

/*
 * Each worker reads its own chunks (index i with i mod workers = its number) into its own shared
 * buffers (workerData.slots), in order, as far ahead as its buffers allow: no message asks for a
 * chunk. The consumer counts the chunks it is done with in shared memory (CONSUMED); a worker
 * whose next buffer still holds an unconsumed chunk sleeps on that cell (Atomics.wait), and only
 * then does the consumer's Atomics.notify wake a thread. A message per chunk woke the worker on
 * every chunk, and on a busy machine the main thread lost its core at each wake-up. The answer
 * (the runs, a few kilobytes) is the only thing copied between threads.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const scanPacketRuns = (${scanPacketRuns.toString()});
const { path, slots, control, ranges, workers, number } = workerData;
const cells = new Int32Array(control);
const stopped = () => Atomics.load(cells, ${STOP}) !== 0;
const fd = openSync(path, 'r');
try {
  for (let index = number, turn = 0; index < ranges.length && !stopped(); index += workers, turn++) {
    const slot = turn % slots.length;
    // The buffer held chunk index - workers * slots.length: free once the consumer is past that one.
    const freeWhen = index - workers * slots.length + 1;
    for (let consumed = Atomics.load(cells, ${CONSUMED}); consumed < freeWhen && !stopped(); consumed = Atomics.load(cells, ${CONSUMED})) {
      Atomics.wait(cells, ${CONSUMED}, consumed);
    }
    if (stopped()) break;
    const { position, length } = ranges[index];
    const bytes = new Uint8Array(slots[slot], 0, length);
    let bytesRead = 0;
    try {
      while (bytesRead < length) {
        const n = readSync(fd, bytes, bytesRead, length - bytesRead, position + bytesRead);
        if (n === 0) break;
        bytesRead += n;
      }
    } catch (error) {
      parentPort.postMessage({ index, slot, bytesRead: 0, runs: null, error: { code: error.code ?? null, message: error.message } });
      break;
    }
    const runs = scanPacketRuns(bytes.subarray(0, bytesRead));
    parentPort.postMessage({ index, slot, bytesRead, runs }, [runs.runs.buffer, runs.pids.buffer]);
  }
} finally {
  closeSync(fd);
}
`;

/** The chunk ranges of a file: every `chunkSize` bytes, and at each of `splitAt`. */
export function chunkRanges(size: number, chunkSize: number, splitAt: readonly number[] = []): Array<{ position: number; length: number }> {
  const cuts = new Set<number>();
  for (let at = chunkSize; at < size; at += chunkSize) cuts.add(at);
  for (const at of splitAt) if (at > 0 && at < size) cuts.add(at);
  const sorted = [...cuts].sort((a, b) => a - b);
  const ranges: Array<{ position: number; length: number }> = [];
  let position = 0;
  for (const cut of [...sorted, size]) {
    if (cut > position) ranges.push({ position, length: cut - position });
    position = cut;
  }
  return ranges;
}

/**
 * Reads a regular file in chunks on `workers` worker threads; yields them in
 * order, each with its offset and its runs of plain packets. The file is read
 * as far as its size when opened. Chunk memory contract as readFileChunks: a
 * chunk's bytes are valid until the next is asked for. Errors are AdapterError
 * as for readFileChunks.
 */
export async function* readFileChunksInParallel(path: string, options: ParallelReadOptions): AsyncGenerator<SourceChunk, void, undefined> {
  const workerCount = Math.max(1, Math.floor(options.workers));
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  if (!Number.isSafeInteger(chunkSize) || chunkSize <= 0) throw new RangeError(`chunkSize must be a positive integer, got ${chunkSize}`);
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const size = await fileSize(path);
  const ranges = chunkRanges(size, chunkSize, options.splitAt);
  if (ranges.length === 0) return;
  const largest = Math.max(...ranges.map((r) => r.length));
  const workerTotal = Math.min(workerCount, ranges.length);
  const slotsOf = Array.from({ length: workerTotal }, () => Array.from({ length: READS_AHEAD_PER_WORKER }, () => new SharedArrayBuffer(largest)));
  const control = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  const workers = slotsOf.map(
    (slots, number) => new Worker(WORKER_SOURCE, { eval: true, workerData: { path, slots, control: control.buffer, ranges, workers: workerTotal, number } }),
  );
  const exited = workers.map((worker) => new Promise<void>((resolve) => worker.once('exit', () => resolve())));
  const answers = new Map<number, ChunkAnswer>();
  let waiting: { index: number; resolve: (answer: ChunkAnswer) => void; reject: (error: Error) => void } | null = null;
  let failure: Error | null = null;
  const settle = (): void => {
    if (waiting === null) return;
    if (failure !== null) {
      waiting.reject(failure);
      waiting = null;
      return;
    }
    const answer = answers.get(waiting.index);
    if (answer === undefined) return;
    answers.delete(waiting.index);
    waiting.resolve(answer);
    waiting = null;
  };
  for (const worker of workers) {
    worker.on('message', (answer: ChunkAnswer) => {
      answers.set(answer.index, answer);
      settle();
    });
    worker.on('error', (error) => {
      failure ??= error;
      settle();
    });
  }
  const next = (index: number): Promise<ChunkAnswer> =>
    new Promise((resolve, reject) => {
      waiting = { index, resolve, reject };
      settle();
    });
  try {
    let offset = 0;
    for (let index = 0; index < ranges.length; index++) {
      const answer = await next(index);
      signal?.throwIfAborted();
      if (answer.error) throw readError(path, answer.error);
      // The file shrank while read: end where it ends, as readFileChunks does.
      if (answer.bytesRead === 0) return;
      const chunk: SourceChunk = { bytes: new Uint8Array(slotsOf[index % workers.length][answer.slot], 0, answer.bytesRead), offset, packetRuns: answer.runs ?? undefined };
      offset += answer.bytesRead;
      onProgress?.(offset, size);
      yield chunk;
      // The consumer is done with this chunk: its buffer may take a later one.
      Atomics.store(control, CONSUMED, index + 1);
      Atomics.notify(control, CONSUMED);
      if (answer.bytesRead < ranges[index].length) return;
    }
  } finally {
    // Each worker closes its descriptor and ends after the read it is in (a terminated worker would leave the descriptor open).
    Atomics.store(control, STOP, 1);
    Atomics.notify(control, CONSUMED);
    await Promise.all(exited);
  }
}

function readError(path: string, error: { code: string | null; message: string }): AdapterError {
  return new AdapterError('ERR_FILE_UNREADABLE', `cannot read ${path}: ${error.message}`, { path, errno: error.code });
}

/**
 * Files smaller than this are read on one thread whatever `threads` says: starting the workers
 * (tens of milliseconds) would cost more than they could save.
 */
export const PARALLEL_READ_MIN_BYTES = 64 * 1024 * 1024;

export interface InspectionReadOptions extends Omit<ParallelReadOptions, 'workers'> {
  /** Threads in all: 1 reads on the main thread (readFileChunks); N > 1 adds N - 1 worker threads. */
  threads: number;
  /** Smaller files are read on one thread (default PARALLEL_READ_MIN_BYTES; tests lower it). */
  minParallelBytes?: number;
}

/** The file's chunks for an inspection: read in parallel with `threads` > 1 on a file of `minParallelBytes` or more, else as readFileChunks reads them. */
export async function* readFileChunksForInspection(path: string, options: InspectionReadOptions): AsyncGenerator<SourceChunk, void, undefined> {
  const { threads, minParallelBytes = PARALLEL_READ_MIN_BYTES, ...rest } = options;
  if (threads > 1 && (await fileSize(path)) >= minParallelBytes) {
    yield* readFileChunksInParallel(path, { ...rest, workers: threads - 1 });
  } else {
    yield* readFileChunks(path, { chunkSize: rest.chunkSize, signal: rest.signal, onProgress: rest.onProgress });
  }
}
