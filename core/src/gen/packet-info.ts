/**
 * What the multiplexer put into one output packet. Fault injectors read it
 * to choose their packet and to find where their fault shows; one instance
 * is reused for every packet, so nothing is allocated per packet.
 */
import type { FaultExpectation } from './injected-fault.js';

/** What a packet carries: part of a PES, part of a PSI section, only a PCR, or nothing (null packet). */
export type PacketContent = 'pes' | 'psi' | 'pcr-only' | 'null';

/** A fault a source injected into one access unit (see ElementaryStreamSource.acceptFault). */
export interface SourceFaultMark {
  kind: string;
  atSeconds: number;
  expect: FaultExpectation;
  details?: Record<string, number | string | boolean>;
}

export class PacketInfo {
  /** 0-based index this packet gets in the output if it is kept. */
  outputIndex = 0;
  /** Byte offset of its sync byte in the output. */
  offset = 0;
  /** Multiplexer time of the packet's slot (seconds since the first packet of a clean run). */
  slotSeconds = 0;
  pid = 0;
  content: PacketContent = 'null';
  payloadUnitStart = false;
  hasAdaptationField = false;
  hasPayload = false;
  /** A PCR is present (its value already written). */
  hasPcr = false;
  /** The shift (27 MHz ticks) faults added to the PCR value. */
  pcrShift27MHz = 0;
  /** The packet starts a PES packet. */
  pesStart = false;
  /** The packet ends a PES packet. */
  pesEnd = false;
  /** The PES started here carries a PTS. */
  pesHasPts = false;
  randomAccess = false;
  /** The packet starts a PSI section. */
  tableStart = false;
  /** A fault the source put into the access unit whose PES starts here. */
  sourceFault: SourceFaultMark | null = null;

  /** Clears everything but the position fields before the multiplexer describes the next packet. */
  reset(outputIndex: number, offset: number, slotSeconds: number): void {
    this.outputIndex = outputIndex;
    this.offset = offset;
    this.slotSeconds = slotSeconds;
    this.pid = 0;
    this.content = 'null';
    this.payloadUnitStart = false;
    this.hasAdaptationField = false;
    this.hasPayload = false;
    this.hasPcr = false;
    this.pcrShift27MHz = 0;
    this.pesStart = false;
    this.pesEnd = false;
    this.pesHasPts = false;
    this.randomAccess = false;
    this.tableStart = false;
    this.sourceFault = null;
  }

  /**
   * A PES packet in the middle of a PES: payload only, no adaptation field,
   * neither the first nor the last packet. Damaging, dropping or repeating
   * one disturbs nothing but the continuity of its PID (no PES start, no
   * PCR, no section is lost), so packet faults choose these.
   */
  get plainPayload(): boolean {
    return this.content === 'pes' && !this.payloadUnitStart && !this.hasAdaptationField && !this.pesEnd;
  }
}
