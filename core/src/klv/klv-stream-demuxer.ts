/**
 * A raw KLV byte stream (a data PID extracted with `ffmpeg -map d -f data`, a
 * serial capture) read as back-to-back triplets (SMPTE ST 336), with the same
 * observations as KLV carried in a transport stream: pid -1, packetIndex -1,
 * the offset of each key, no time.
 */
import type { Demuxer, DemuxerFactoryOptions } from '../kernel/demuxer-factory.js';
import type { ObservationSink } from '../kernel/observations.js';
import { klvErrorObservation, observeKlvPacket } from './klv-packet-observer.js';
import { KlvReassembler, type KlvOrigin } from './klv-reassembler.js';
import { hasUlPrefixAt } from './klv-triplet.js';

export class KlvStreamDemuxer implements Demuxer {
  private offset = 0;
  private klvCount = 0;
  private readonly reassembler: KlvReassembler;

  constructor(sink: ObservationSink, options: DemuxerFactoryOptions = {}) {
    const { klvFields, onKlvPacket } = options;
    const at = (origin: KlvOrigin, intoPiece: number): KlvOrigin => ({ ...origin, offset: origin.offset + intoPiece });
    this.reassembler = new KlvReassembler({
      triplet: (bytes, start, end, origin, intoPiece) => {
        onKlvPacket?.();
        observeKlvPacket(bytes, start, end, { pid: -1, klvIndex: this.klvCount++, carriage: 'raw', origin: at(origin, intoPiece), klvFields }, sink);
      },
      garbage: (origin, count, message, intoPiece) =>
        sink(klvErrorObservation(-1, null, at(origin, intoPiece), 'klv-raw-decode-error', null, `${message} (${count} bytes)`, { bytes: count })),
    });
  }

  /** KLV packets framed so far. */
  get packets(): number {
    return this.klvCount;
  }

  push(chunk: Uint8Array): void {
    this.reassembler.push(chunk, { offset: this.offset, packetIndex: -1, pts90kHz: null });
    this.offset += chunk.length;
  }

  end(): void {
    this.reassembler.flush();
  }
}

/** Whether a source starts like raw KLV (a universal label) rather than MPEG-TS. */
export function looksLikeRawKlv(head: Uint8Array): boolean {
  return hasUlPrefixAt(head, 0);
}
