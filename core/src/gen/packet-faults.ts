/**
 * Faults on single packets: loss, repetition, a transport error flag, a
 * damaged sync byte. Each acts on a mid-PES payload packet of its PID
 * (video by default; `PacketInfo.plainPayload`) at or after the requested
 * time, so that the fault is the only thing an analyzer can find.
 */
import type { FaultInjector, FaultKind, PacketFate, StreamLayout } from './fault-injector.js';
import type { FaultSpec } from './fault-spec.js';
import type { TsErrorType } from '../kernel/observations.js';
import type { InjectedFault } from './injected-fault.js';
import type { PacketInfo } from './packet-info.js';
import { checkFaultTime, faultAt, faultPid, hex } from './fault-spec-checks.js';

/** The PID a packet fault acts on: an elementary stream's, video by default. */
function packetFaultPid(spec: FaultSpec, layout: StreamLayout): number {
  checkFaultTime(spec, layout);
  return faultPid(spec, layout.videoPid, layout.elementaryPids, 'an elementary stream PID');
}

function isVictim(info: PacketInfo, pid: number, atSeconds: number): boolean {
  return info.pid === pid && info.slotSeconds >= atSeconds && info.plainPayload;
}

function notFound(spec: FaultSpec, pid: number): string {
  return `no mid-PES packet of PID ${hex(pid)} at or after ${spec.atSeconds} s`;
}

/**
 * ISO 13818-1 2.4.3.3: a lost packet shows as a continuity_counter that skips
 * a value in the next packet of the PID (TR 101 290 1.4).
 */
export const dropPacketFault: FaultKind = {
  kind: 'drop-packet',
  summary: 'leaves out one packet (video PID by default): a continuity error at the next packet of that PID',
  create(spec, layout): FaultInjector {
    const pid = packetFaultPid(spec, layout);
    let droppedCc = -1;
    let truth: InjectedFault | null = null;
    return {
      onPacket(info, bytes, syncPos): PacketFate {
        if (truth) return 'keep';
        if (droppedCc < 0) {
          if (!isVictim(info, pid, spec.atSeconds)) return 'keep';
          droppedCc = bytes[syncPos + 3] & 0x0f;
          return 'drop';
        }
        if (info.pid === pid && info.hasPayload) {
          const found = bytes[syncPos + 3] & 0x0f;
          truth = faultAt(spec, info, { observation: 'ts-error', type: 'continuity-error' }, { expectedCc: droppedCc, foundCc: found });
        }
        return 'keep';
      },
      result: () => truth,
      pendingReason: () => (droppedCc < 0 ? notFound(spec, pid) : `no packet of PID ${hex(pid)} after the dropped one`),
    };
  },
};

/**
 * A kind that acts on one packet: `act` may change its bytes and returns the
 * details of the ground truth, which is that packet (or, when the packet is
 * sent twice, its second copy).
 */
function actOnOnePacket(
  kind: string,
  summary: string,
  type: TsErrorType,
  fate: 'keep' | 'duplicate',
  act: (bytes: Uint8Array, syncPos: number) => InjectedFault['details'],
): FaultKind {
  return {
    kind,
    summary,
    create(spec, layout): FaultInjector {
      const pid = packetFaultPid(spec, layout);
      const later = fate === 'duplicate' ? 1 : 0;
      let truth: InjectedFault | null = null;
      return {
        onPacket(info, bytes, syncPos): PacketFate {
          if (truth || !isVictim(info, pid, spec.atSeconds)) return 'keep';
          truth = faultAt(spec, info, { observation: 'ts-error', type }, act(bytes, syncPos), later, layout.packetSize);
          return fate;
        },
        result: () => truth,
        pendingReason: () => notFound(spec, pid),
      };
    },
  };
}

/**
 * ISO 13818-1 2.4.3.3: a packet may be sent twice in a row with the same
 * continuity_counter; analyzers note the second copy as a duplicate.
 */
export const duplicatePacketFault = actOnOnePacket(
  'duplicate-packet',
  'sends one packet twice in a row (video PID by default): a duplicate packet at the second copy',
  'duplicate-packet',
  'duplicate',
  (bytes, syncPos) => ({ continuityCounter: bytes[syncPos + 3] & 0x0f }),
);

/** ISO 13818-1 2.4.3.2: transport_error_indicator set in one packet (TR 101 290 2.1). */
export const transportErrorFault = actOnOnePacket(
  'tei',
  'sets transport_error_indicator in one packet (video PID by default)',
  'transport-error',
  'keep',
  (bytes, syncPos) => {
    bytes[syncPos + 1] |= 0x80;
    return undefined;
  },
);

/** ISO 13818-1 2.4.3.2: one packet whose sync_byte is 0x46 instead of 0x47, the rest intact (TR 101 290 1.2). */
export const syncByteFault = actOnOnePacket(
  'sync-byte',
  'damages the sync byte of one packet (0x47 -> 0x46; video PID by default)',
  'sync-byte-error',
  'keep',
  (bytes, syncPos) => {
    bytes[syncPos] = 0x46;
    return { syncByte: 0x46 };
  },
);
