/**
 * Tiny checks and observations for the kernel tests: just enough to see what
 * reaches a check and what comes out of it.
 */
import { defineCheck } from '../../src/kernel/define-check.js';
import type { Observation, ObservationKind, ObservationOf } from '../../src/kernel/observations.js';

export function pcr(pcr27MHz: number, offset: number, pid = 0x100): ObservationOf<'pcr'> {
  return { kind: 'pcr', pid, pcr27MHz, discontinuity: false, offset, packetIndex: offset / 188, t: null };
}

export function pes(pts90kHz: number, offset: number, pid = 0x101): ObservationOf<'pes'> {
  return { kind: 'pes', pid, streamId: 0xfc, pesPacketLength: 0, pts90kHz, dts90kHz: null, randomAccess: false, offset, packetIndex: offset / 188, t: null };
}

export function tsError(offset: number, pid = 0x100): ObservationOf<'ts-error'> {
  return {
    kind: 'ts-error',
    pid,
    type: 'continuity-error',
    severity: 'error',
    tr101290: '1.4',
    message: 'continuity_counter 3 after 1',
    offset,
    packetIndex: offset / 188,
    t: null,
  };
}

/** A check that records the kind and offset of every observation it receives. */
export function recorder(id: string, consumes: readonly ObservationKind[]) {
  const seen: string[] = [];
  const check = defineCheck({
    id,
    version: '1.0.0',
    title: `records ${consumes.join(', ')}`,
    consumes,
    create() {
      const record = (o: Observation): void => {
        seen.push(`${o.kind}@${o.offset}`);
      };
      return Object.fromEntries(consumes.map((kind) => [kind, record]));
    },
  });
  return { check, seen };
}
