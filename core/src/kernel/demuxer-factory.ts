/**
 * How the pipeline gets a demuxer. A factory rather than the class, so the
 * composition root can add the KLV payload consumer (or a test a fake)
 * without the pipeline knowing.
 */
import { TsDemuxer } from '../ts/demuxer.js';
import type { ObservationSink } from './observations.js';

/** Bytes in, observations out to the sink it was made with. */
export interface Demuxer {
  /** Feeds the next chunk; the caller may reuse the chunk's memory once this returns. */
  push(chunk: Uint8Array): void;
  /** Ends the source: flushes whatever is held. */
  end(): void;
  /** The packet size in use once known (188, 192 or 204), for demuxers of packetised streams. */
  readonly packetSize?: number | null;
}

export type DemuxerFactory = (sink: ObservationSink) => Demuxer;

/** The default: the MPEG-TS demuxer, without a payload consumer. */
export const createTsDemuxer: DemuxerFactory = (sink) => new TsDemuxer(sink);
