/**
 * The fault kinds the generator knows without being told (the transport
 * stream level ones; payload faults come with their sources).
 */
import type { FaultKind } from './fault-injector.js';
import { KLV_FAULT_KIND_NAMES } from './klv-fault-kinds.js';
import { dropPacketFault, duplicatePacketFault, syncByteFault, transportErrorFault } from './packet-faults.js';
import { pcrGapFault, pcrJumpBackwardFault, pcrJumpForwardFault } from './pcr-faults.js';
import { ptsGapFault } from './pts-gap-fault.js';
import { patGapFault, pmtGapFault, psiCrcFault } from './table-faults.js';

export const BUILT_IN_FAULT_KINDS: readonly FaultKind[] = [
  dropPacketFault,
  duplicatePacketFault,
  transportErrorFault,
  syncByteFault,
  pcrGapFault,
  pcrJumpBackwardFault,
  pcrJumpForwardFault,
  patGapFault,
  pmtGapFault,
  ptsGapFault,
  psiCrcFault,
];

/**
 * Their names and those of the KLV stream's kinds (klv-fault-kinds.ts, which
 * the KLV source injects when the `klv` option adds it), for parseFaultSpec
 * and help texts.
 */
export const BUILT_IN_FAULT_KIND_NAMES: readonly string[] = [...BUILT_IN_FAULT_KINDS.map((k) => k.kind), ...KLV_FAULT_KIND_NAMES];
