/**
 * How the pipeline gets a demuxer. A factory rather than the class, so the
 * composition root can add the KLV payload consumer (or a test a fake)
 * without the pipeline knowing.
 */
import { TsDemuxer } from '../ts/demuxer.js';
import type { PacketRuns } from '../ts/packet-runs.js';
import type { PesPayloadConsumer } from '../ts/pes-payload-consumer.js';
import type { ObservationSink } from './observations.js';

/** Bytes in, observations out to the sink it was made with. */
export interface Demuxer {
  /**
   * Feeds the next chunk; the caller may reuse the chunk's memory once this returns. `runs`, when
   * the source found them (a parallel file read), may make it faster, never change what it emits.
   */
  push(chunk: Uint8Array, runs?: PacketRuns): void;
  /** Ends the source: flushes whatever is held. */
  end(): void;
  /**
   * The source paused (a live feed gone silent): passes on what is held
   * waiting for later bytes, as far as it can be without them, and goes on
   * with the next chunk as before. Demuxers that hold nothing need not have it.
   */
  flush?(): void;
  /** The packet size in use once known (188, 192 or 204), for demuxers of packetised streams. */
  readonly packetSize?: number | null;
}

/** What the run needs made. A demuxer that cannot leave a kind unmade makes it anyway: the checks never see what they do not consume. */
export interface DemuxerFactoryOptions {
  /**
   * Make a `klv-field` observation for each decoded item (default true). The same items are in
   * their `metadata-packet`; a run in which nothing reads `klv-field` (no check consumes it, no
   * sink stores it) turns this off, and saves making, timing and dispatching three quarters of
   * the observations of a typical recording (about 22 items per ST 0601 packet).
   */
  klvFields?: boolean;
  /**
   * Told as each KLV packet is framed, at the arrival of its last bytes: its
   * observations may then wait for the next PCR to be timed (a live session
   * counts KLV packets per second of arrival with this).
   */
  onKlvPacket?: () => void;
  /**
   * Also handed the PES payloads of the streams it wants, beside any consumer of the factory's
   * own (the analyze pass reads the video's parameter sets and picture types with it).
   */
  extraPayloadConsumer?: PesPayloadConsumer;
}

export type DemuxerFactory = (sink: ObservationSink, options?: DemuxerFactoryOptions) => Demuxer;

/** The default: the MPEG-TS demuxer, without a payload consumer of its own. */
export const createTsDemuxer: DemuxerFactory = (sink, options) => new TsDemuxer(sink, { payloadConsumer: options?.extraPayloadConsumer });
