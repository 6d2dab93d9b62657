/**
 * Per-PID PES state: the header while it is being gathered (it may span
 * packets), and, for the streams whose payload is wanted (KLV), the payload
 * of the PES in progress (ISO 13818-1 2.4.3.6).
 */
import type { PesObservation } from '../kernel/observations.js';

/** Largest PES header: 9 fixed bytes plus PES_header_data_length (at most 255). */
const MAX_HEADER_BYTES = 9 + 255;

export class PesAssembly {
  /** The header bytes gathered so far, while `awaitingHeader`. */
  readonly header = new Uint8Array(MAX_HEADER_BYTES);
  headerBytes = 0;
  awaitingHeader = false;
  startOffset = 0;
  startIndex = 0;
  randomAccess = false;

  /** Whether the payload of this PID's PES packets is collected. */
  collect = false;
  /** Bytes of each payload collected at most (the consumer's prefixBytes). */
  limit = Infinity;
  /** The PES whose payload is being collected, or null. */
  current: PesObservation | null = null;
  payload = new Uint8Array(0);
  payloadLength = 0;
  /** Payload bytes the PES announces (PES_packet_length minus header), or -1 when unbounded. */
  expectedPayload = -1;
  /** A packet of this PES was lost or damaged. */
  damaged = false;

  constructor(readonly pid: number) {}

  appendPayload(bytes: Uint8Array, start: number, end: number): void {
    const length = end - start;
    if (length <= 0) return;
    if (this.payloadLength + length > this.payload.length) {
      const grown = new Uint8Array(Math.max(this.payloadLength + length, this.payload.length * 2, 1024));
      grown.set(this.payload.subarray(0, this.payloadLength));
      this.payload = grown;
    }
    this.payload.set(bytes.subarray(start, end), this.payloadLength);
    this.payloadLength += length;
  }

  /** Takes the collected payload (a copy the receiver owns) and clears the PES in progress. */
  takePayload(): Uint8Array {
    const taken = this.payload.slice(0, this.payloadLength);
    this.current = null;
    this.payloadLength = 0;
    this.expectedPayload = -1;
    this.damaged = false;
    return taken;
  }
}
