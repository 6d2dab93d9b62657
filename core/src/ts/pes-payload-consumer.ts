/**
 * The hook through which a stream's PES payloads leave the demuxer whole:
 * the KLV carriage layer (MISB ST 1402) is one such consumer. The demuxer
 * asks `wants` for every elementary stream of every PMT, collects the PES
 * payloads of the streams wanted, and hands each one over when it is
 * complete (its PES_packet_length reached, or the next PES started).
 */
import type { ElementaryStream, Observation, PesObservation } from '../kernel/observations.js';

export interface PesPayloadConsumer {
  /** Whether the payload of this elementary stream (as the PMT declares it) is wanted. */
  wants(stream: ElementaryStream): boolean;
  /**
   * Of a wanted stream, the bytes of each payload wanted at most (default: all). The payload is handed
   * over once it has them, cut there, and the rest of the PES is not collected: a reader of picture
   * headers needs an access unit's first kilobytes, and copying whole video PES would slow the demuxer
   * by a third and keep its packets off the fast path. Asked at each PES start, so the answer may change
   * with what the consumer has seen.
   */
  prefixBytes?(stream: ElementaryStream): number;
  /**
   * One PES payload, owned by the consumer. `complete` is false when a packet
   * of it was lost or damaged or it ended before its PES_packet_length.
   * Observations it derives go out through `emit`, which times them.
   */
  payload(pes: PesObservation, stream: ElementaryStream, payload: Uint8Array, complete: boolean, emit: (observation: Observation) => void): void;
  /** The source ended: report what is held (a KLV packet cut short). */
  end?(): void;
}
