/**
 * One elementary stream inside the multiplexer: the queue of access units
 * its source produced, and the PES being sent.
 */
import type { AccessUnit, ElementaryStreamSource } from './elementary-stream-source.js';
import type { FaultSet } from './fault-set.js';
import type { SourceFaultMark } from './packet-info.js';
import { wrapPts90kHz } from './cbr-clock.js';
import { PesPacketizer } from './pes-packetizer.js';
import type { PesHeaderFields } from './pes-header-writer.js';

/** How far ahead the channel asks its source for units, in seconds (fewer calls, same result). */
const LOOKAHEAD_SECONDS = 0.05;
/**
 * Slots a bounded PES keeps free at the end of the stream for the packets
 * that may come between its own (PCR, PAT, PMT, other streams): a PES with a
 * PES_packet_length must not be cut off by the end of the stream.
 */
const END_MARGIN_SLOTS = 8;

export class ElementaryStreamChannel {
  readonly packetizer: PesPacketizer;
  readonly pid: number;
  private queue: AccessUnit[] = [];
  private head = 0;
  private polledUntil = -Infinity;

  // The PES being sent, for PacketInfo.
  startedWithPts = false;
  startedRandomAccess = false;
  startedFault: SourceFaultMark | null = null;

  constructor(
    readonly source: ElementaryStreamSource,
    /** The 90 kHz clock at the stream's first byte, added to the units' own times. */
    private readonly initialStc90kHz: number,
    private readonly faults: FaultSet,
  ) {
    this.pid = source.pid;
    this.packetizer = new PesPacketizer(source.pid);
  }

  /**
   * Whether the channel has a packet to send at mux time `t`; starts the next
   * PES when its unit is ready (and, for a bounded PES, when it can finish in
   * the `slotsLeft` of the stream).
   */
  ready(t: number, slotsLeft: number): boolean {
    if (this.packetizer.active) return true;
    if (this.head >= this.queue.length) {
      if (t < this.polledUntil) return false;
      this.polledUntil = t + LOOKAHEAD_SECONDS;
      this.queue = this.source.nextAccessUnits(this.polledUntil);
      this.head = 0;
      if (this.queue.length === 0) return false;
    }
    const unit = this.queue[this.head];
    if (unit.readySeconds > t) return false;
    const fields = this.headerFields(unit, false);
    if (!this.source.unboundedPes && slotsLeft < PesPacketizer.packetsFor(fields, unit.payload.length) + END_MARGIN_SLOTS) return false;
    this.head++;
    const omitPts = unit.pts90kHz !== null && this.faults.omitsPts(this.pid, t);
    this.packetizer.start(omitPts ? this.headerFields(unit, true) : fields, unit.payload, unit.randomAccess === true);
    this.startedWithPts = unit.pts90kHz !== null && !omitPts;
    this.startedRandomAccess = unit.randomAccess === true;
    this.startedFault = unit.fault ?? null;
    return true;
  }

  /**
   * ISO 13818-1 2.4.3.7 header fields of a unit. `withoutPts` drops PTS and
   * DTS and puts as many stuffing bytes in their place, so the PES keeps its
   * size and every later byte of the stream stays where it was.
   */
  private headerFields(unit: AccessUnit, withoutPts: boolean): PesHeaderFields {
    const hasDts = unit.pts90kHz !== null && unit.dts90kHz !== undefined && unit.dts90kHz !== null;
    const source = this.source;
    return {
      streamId: source.streamId,
      payloadLength: unit.payload.length,
      unbounded: source.unboundedPes === true,
      dataAlignment: source.dataAligned !== false,
      pts90kHz: withoutPts || unit.pts90kHz === null ? null : wrapPts90kHz(this.initialStc90kHz + unit.pts90kHz),
      dts90kHz: withoutPts || !hasDts ? null : wrapPts90kHz(this.initialStc90kHz + (unit.dts90kHz as number)),
      stuffingBytes: withoutPts ? (hasDts ? 10 : 5) : 0,
    };
  }
}
