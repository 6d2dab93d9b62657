/**
 * KLV carriage in MPEG-TS per MISB ST 1402 (with ISO 13818-1 2.12): which
 * elementary streams carry KLV, as the PMT declares them, and how to get KLV
 * packets out of their PES payloads.
 * - Synchronous: stream_type 0x15 with a metadata descriptor (or
 *   registration) naming 'KLVA'; each PES payload is metadata AU cells, each
 *   with a 5-byte header; an AU may be fragmented over cells.
 * - Asynchronous: stream_type 0x06 with a 'KLVA' registration descriptor;
 *   the PES payload is KLV bytes; a KLV packet may span PES packets.
 * Streams are never guessed from their content.
 */
import type { ElementaryStream, Observation, PesObservation } from '../kernel/observations.js';
import type { DemuxerFactoryOptions } from '../kernel/demuxer-factory.js';
import type { PesPayloadConsumer } from '../ts/pes-payload-consumer.js';
import { KlvReassembler, type KlvOrigin } from './klv-reassembler.js';
import { klvErrorObservation, observeKlvPacket } from './klv-packet-observer.js';
import { AU_CELL_HEADER_BYTES, CellFragment, readAuCellHeader } from './st1402-au-cell.js';

export type KlvCarriageKind = 'sync' | 'async';

/** How an elementary stream carries KLV, or null when it carries none. */
export function klvCarriageOf(stream: ElementaryStream): KlvCarriageKind | null {
  const names = (field: string): boolean => stream.descriptors.some((d) => d.fields?.[field] === 'KLVA');
  const registered = names('formatIdentifier');
  if (stream.streamType === 0x15 && (registered || names('metadataFormatIdentifier') || names('metadataApplicationFormatIdentifier'))) return 'sync';
  if (stream.streamType === 0x06 && registered) return 'async';
  return null;
}

class KlvPid {
  klvCount = 0;
  /** Fragments of a synchronous AU being gathered. */
  fragments: Uint8Array[] = [];
  fragmentOrigin: KlvOrigin | null = null;
  readonly reassembler: KlvReassembler;

  constructor(readonly pid: number, readonly carriage: KlvCarriageKind, emit: (o: Observation) => void, { klvFields, onKlvPacket }: DemuxerFactoryOptions) {
    this.reassembler = new KlvReassembler({
      triplet: (bytes, start, end, origin) => {
        onKlvPacket?.();
        observeKlvPacket(bytes, start, end, { pid, klvIndex: this.klvCount++, carriage, origin, klvFields }, emit);
      },
      garbage: (origin, count, message) => {
        emit(klvErrorObservation(pid, null, origin, 'klv-raw-decode-error', null, `${message} (${count} bytes)`, { bytes: count }));
      },
    });
  }
}

export class St1402Carriage implements PesPayloadConsumer {
  private readonly pids = new Map<number, KlvPid>();

  constructor(private readonly options: DemuxerFactoryOptions = {}) {}

  wants(stream: ElementaryStream): boolean {
    return klvCarriageOf(stream) !== null;
  }

  payload(pes: PesObservation, stream: ElementaryStream, payload: Uint8Array, complete: boolean, emit: (o: Observation) => void): void {
    const carriage = klvCarriageOf(stream);
    if (!carriage) return;
    let state = this.pids.get(pes.pid);
    if (!state || state.carriage !== carriage) {
      state?.reassembler.flush();
      state = new KlvPid(pes.pid, carriage, emit, this.options);
      this.pids.set(pes.pid, state);
    }
    const origin: KlvOrigin = { offset: pes.offset, packetIndex: pes.packetIndex, pts90kHz: pes.pts90kHz };
    if (carriage === 'async') {
      state.reassembler.push(payload, origin);
      if (!complete) state.reassembler.flush('KLV packet cut short by a lost or damaged TS packet');
      return;
    }
    this.cells(state, payload, origin, complete, emit);
  }

  end(): void {
    for (const state of this.pids.values()) state.reassembler.flush();
  }

  /** ISO 13818-1 2.12.4: the metadata AU cells of one synchronous PES payload. */
  private cells(state: KlvPid, payload: Uint8Array, origin: KlvOrigin, complete: boolean, emit: (o: Observation) => void): void {
    let p = 0;
    while (p < payload.length) {
      if (payload.length - p < AU_CELL_HEADER_BYTES) {
        emit(klvErrorObservation(state.pid, null, origin, 'klv-raw-decode-error', null, `metadata AU cell header truncated: ${payload.length - p} of 5 bytes`));
        return;
      }
      const header = readAuCellHeader(payload, p);
      p += AU_CELL_HEADER_BYTES;
      let data = payload.subarray(p, p + header.auCellDataLength);
      p += header.auCellDataLength;
      if (data.length < header.auCellDataLength) {
        const why = complete ? 'runs past the PES payload' : 'was cut short by a lost or damaged TS packet';
        emit(klvErrorObservation(state.pid, null, origin, 'klv-raw-decode-error', null, `metadata AU cell of ${header.auCellDataLength} bytes ${why}`, { available: data.length }));
      }
      switch (header.cellFragmentIndication) {
        case CellFragment.Complete:
          this.accessUnit(state, data, origin);
          break;
        case CellFragment.First:
          state.fragments = [data.slice()];
          state.fragmentOrigin = origin;
          break;
        case CellFragment.Middle:
          state.fragments.push(data.slice());
          break;
        case CellFragment.Last:
          if (state.fragmentOrigin) {
            data = joinAll([...state.fragments, data]);
            this.accessUnit(state, data, state.fragmentOrigin);
          } else {
            emit(klvErrorObservation(state.pid, null, origin, 'klv-raw-decode-error', null, 'last fragment of a metadata AU whose first fragment never came'));
          }
          state.fragments = [];
          state.fragmentOrigin = null;
          break;
      }
    }
  }

  /** An access unit holds whole KLV packets (MISB ST 1402): what is left at its end is a packet cut short. */
  private accessUnit(state: KlvPid, data: Uint8Array, origin: KlvOrigin): void {
    state.reassembler.push(data, origin);
    state.reassembler.flush('KLV packet cut short at the end of its metadata access unit');
  }
}

function joinAll(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let pos = 0;
  for (const part of parts) {
    out.set(part, pos);
    pos += part.length;
  }
  return out;
}
