// PLACEHOLDER — being written by the lead. Signature is final.
import type { ObservationSink } from '../kernel/observations.js';

export interface DemuxerOptions {
  /** Packet size when known; detected from the data otherwise. */
  packetSize?: 188 | 192 | 204;
}

/** MPEG-TS demultiplexer: bytes in (any chunking), observations out. */
export class TsDemuxer {
  constructor(private readonly sink: ObservationSink, private readonly options: DemuxerOptions = {}) {}
  /** Feeds the next chunk of the source. The chunk may be reused by the caller after the call returns. */
  push(_chunk: Uint8Array): void {}
  /** Ends the source: flushes pending observations and emits per-PID totals. */
  end(): void {}
}
