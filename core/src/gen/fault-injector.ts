/**
 * The contract of a fault kind. A kind is a factory of injectors; an
 * injector is the per-run state of one requested fault. It acts at two
 * levels:
 *
 * - multiplexer decisions, asked at the moment the multiplexer is about to
 *   put a clock or a table into the stream (omit a PCR, shift its value,
 *   omit a table, corrupt its CRC, omit a PTS). Omissions keep the packet
 *   layout of the clean stream (the space is stuffed or a null packet takes
 *   the slot), so the rest of the stream is byte for byte a clean run's;
 * - packets, seen in output order after the multiplexer wrote them: an
 *   injector may change bytes, drop or repeat the packet, and recognises the
 *   packet where its fault shows (the ground truth).
 *
 * A new kind needs no change to the multiplexer: implement FaultKind with
 * these hooks and pass it in `GeneratorOptions.faultKinds`. Faults inside an
 * elementary stream's payload (e.g. a corrupt KLV checksum) belong to the
 * source instead (ElementaryStreamSource.acceptFault).
 */
import type { FaultSpec } from './fault-spec.js';
import type { InjectedFault } from './injected-fault.js';
import type { PacketInfo } from './packet-info.js';

/** What becomes of a packet: kept, left out of the output, or sent twice in a row. */
export type PacketFate = 'keep' | 'drop' | 'duplicate';

/** The resolved shape of the stream a fault is injected into. */
export interface StreamLayout {
  packetSize: 188 | 192 | 204;
  /** Bytes before the sync byte in each packet (4 for 192, else 0). */
  prefixSize: number;
  bitrate: number;
  durationSeconds: number;
  transportStreamId: number;
  programNumber: number;
  pmtPid: number;
  pcrPid: number;
  videoPid: number;
  audioPid: number | null;
  /** PIDs of every elementary stream (video, audio, extra streams). */
  elementaryPids: readonly number[];
  patIntervalMs: number;
  pmtIntervalMs: number;
  pcrIntervalMs: number;
  initialPcr27MHz: number;
  decoderDelayMs: number;
  videoFrameRate: number;
}

export interface FaultInjector {
  /** Asked when a PCR is due on `pid`: true leaves it out (the adaptation field keeps its size). */
  omitsPcr?(pid: number, slotSeconds: number): boolean;
  /** Asked for every PCR written on `pid`: ticks (27 MHz) to add to its value. */
  pcrShift27MHz?(pid: number, slotSeconds: number): number;
  /** Asked when a PSI table is due on `pid`: true sends null packets in its place. */
  omitsTable?(pid: number, slotSeconds: number): boolean;
  /** Asked when a table that is not omitted is due: true sends it with a wrong CRC_32. */
  corruptsTableCrc?(pid: number, slotSeconds: number): boolean;
  /** Asked when a PES with a PTS starts on `pid`: true writes it without PTS/DTS (header stuffing keeps its size). */
  omitsPts?(pid: number, slotSeconds: number): boolean;
  /**
   * Sees every packet in output order; may change `bytes` (the packet's
   * sync byte is at `syncPos`) and decide its fate.
   */
  onPacket?(info: PacketInfo, bytes: Uint8Array, syncPos: number): PacketFate;
  /** The ground truth once the fault is placed and its packet seen, else null. */
  result(): InjectedFault | null;
  /** Why the fault is not placed yet, for the error at the end of the stream. */
  pendingReason(): string;
}

export interface FaultKind {
  readonly kind: string;
  /** One line for `--help` and docs. */
  readonly summary: string;
  /** Checks the spec against the stream (throws GeneratorError ERR_FAULT_SPEC) and returns a fresh injector. */
  create(spec: FaultSpec, layout: StreamLayout): FaultInjector;
}
