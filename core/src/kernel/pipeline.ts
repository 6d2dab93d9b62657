/**
 * The engine's run: source -> demux -> observations -> checks -> points ->
 * sinks. `runPipeline` reads bytes; `runObservations` replays observations
 * already made (a stored ingest run, re-checked with new rules). Both feed
 * the same CheckSession, so a check behaves the same either way.
 *
 * Per chunk the pipeline adds a type test, a progress call and an abort
 * test; per observation, only the session's dispatch (and the observation
 * sinks, when any are attached).
 */
import { CheckSession, type CheckSessionOptions, type SessionResult } from './check-session.js';
import { CoreError } from './core-error.js';
import type { AnyCheck } from './define-check.js';
import { type DemuxerFactory, createTsDemuxer } from './demuxer-factory.js';
import { OBSERVATION_KINDS } from './observation-kinds.js';
import type { Observation, ObservationKind, ObservationSink } from './observations.js';
import type { PacketRuns } from '../ts/packet-runs.js';

/** A chunk of a byte source with the offset of its first byte in the source. */
export interface SourceChunk {
  bytes: Uint8Array;
  offset: number;
  /** The runs of plain packets in `bytes`, when the source found them on a worker thread (parallel inspection). */
  packetRuns?: PacketRuns;
}

/**
 * Bytes in order. Chunks with offsets must be contiguous from offset 0:
 * observation offsets are counted from the first byte the demuxer gets.
 */
export type ByteSource = AsyncIterable<Uint8Array | SourceChunk> | Iterable<Uint8Array | SourceChunk>;

export interface RunOptions extends CheckSessionOptions {
  checks: readonly AnyCheck[];
  /** See every observation before the checks do (storing, printing). A sink that throws aborts the run. */
  observationSinks?: readonly ObservationSink[];
  /**
   * Cancels the run: it rejects with `signal.reason` (an AbortError unless
   * the caller gave another reason). The signal is tested between chunks,
   * so give the same signal to a source that may wait (a live socket).
   */
  signal?: AbortSignal;
}

export interface PipelineOptions extends RunOptions {
  /** Default: the MPEG-TS demuxer. */
  demuxerFactory?: DemuxerFactory;
  /**
   * The observation kinds the observation sinks read (default: every kind). With the checks'
   * `consumes`, it tells the demuxer what it may leave unmade (DemuxerFactoryOptions).
   */
  sinkKinds?: readonly ObservationKind[];
  /** Called after each chunk with the bytes demultiplexed so far. */
  onProgress?: (bytesDone: number) => void;
}

export interface PipelineResult extends SessionResult {
  /** Bytes read from the source. */
  bytes: number;
}

export async function runPipeline(source: ByteSource, options: PipelineOptions): Promise<PipelineResult> {
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const session = new CheckSession(options.checks, options);
  // A sink that does not say what it reads reads every kind.
  const sinkKinds = (options.observationSinks?.length ?? 0) === 0 ? [] : (options.sinkKinds ?? OBSERVATION_KINDS);
  const demuxer = (options.demuxerFactory ?? createTsDemuxer)(withObservationSinks(session.observe, options.observationSinks), session.demuxerOptions(sinkKinds));
  let bytes = 0;
  for await (const chunk of source) {
    let data: Uint8Array;
    let runs: PacketRuns | undefined;
    if (chunk instanceof Uint8Array) {
      data = chunk;
    } else {
      runs = chunk.packetRuns;
      if (chunk.offset !== bytes) {
        throw new CoreError('ERR_SOURCE_NOT_CONTIGUOUS', `source chunk at offset ${chunk.offset}, expected ${bytes}`, {
          offset: chunk.offset,
          expected: bytes,
        });
      }
      data = chunk.bytes;
    }
    demuxer.push(data, runs);
    bytes += data.length;
    session.throwIfSinkFailed();
    onProgress?.(bytes);
    // Leaving the loop by a throw calls the source's return(), which closes it (e.g. the file handle).
    signal?.throwIfAborted();
  }
  demuxer.end();
  return { ...session.finish(), bytes };
}

export interface ObservationRunOptions extends RunOptions {
  /** Called every OBSERVATION_BATCH observations and at the end, with the count so far. */
  onProgress?: (observationsDone: number) => void;
}

/** Observations between progress calls, abort tests and (for a synchronous source) yields to the event loop. */
export const OBSERVATION_BATCH = 65_536;

/**
 * Runs the checks over observations already made. A synchronous iterable is
 * consumed in batches with a yield to the event loop between them, so a long
 * replay stays cancellable and does not starve the server.
 */
export async function runObservations(
  observations: Iterable<Observation> | AsyncIterable<Observation>,
  options: ObservationRunOptions,
): Promise<SessionResult> {
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const session = new CheckSession(options.checks, options);
  const observe = withObservationSinks(session.observe, options.observationSinks);
  const synchronous = Symbol.iterator in observations;
  let done = 0;
  let untilBatch = OBSERVATION_BATCH;
  const endOfBatch = async (): Promise<void> => {
    untilBatch = OBSERVATION_BATCH;
    session.throwIfSinkFailed();
    onProgress?.(done);
    if (synchronous) await new Promise<void>((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
  };
  if (synchronous) {
    for (const observation of observations) {
      observe(observation);
      done++;
      if (--untilBatch === 0) await endOfBatch();
    }
  } else {
    for await (const observation of observations) {
      observe(observation);
      done++;
      if (--untilBatch === 0) await endOfBatch();
    }
  }
  session.throwIfSinkFailed();
  if (untilBatch !== OBSERVATION_BATCH || done === 0) onProgress?.(done);
  return session.finish();
}

/** The sink the demuxer (or the replay) writes to: the observation sinks first, then the checks. */
function withObservationSinks(observe: ObservationSink, sinks: readonly ObservationSink[] = []): ObservationSink {
  if (sinks.length === 0) return observe;
  const all = [...sinks, observe];
  return (observation) => {
    for (let i = 0; i < all.length; i++) all[i](observation);
  };
}
