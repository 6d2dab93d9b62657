/**
 * Faults of the program clock reference (ISO 13818-1 2.4.3.5): a stretch
 * without PCR, and PCR values that jump without discontinuity_indicator.
 */
import type { FaultInjector, FaultKind, StreamLayout } from './fault-injector.js';
import type { FaultSpec } from './fault-spec.js';
import type { InjectedFault } from './injected-fault.js';
import { PCR_HZ } from '../ts/clock.js';
import { checkFaultTime, faultAt, faultGapMs, faultPid, GapWindow, hex } from './fault-spec-checks.js';

export const DEFAULT_PCR_GAP_MS = 200;
export const DEFAULT_PCR_JUMP_MS = 1000;

function pcrPid(spec: FaultSpec, layout: StreamLayout): number {
  checkFaultTime(spec, layout);
  return faultPid(spec, layout.pcrPid, [layout.pcrPid], 'the PCR PID');
}

/**
 * No PCR for `durationMs` (default 200 ms; TR 101 290 1.5 wants one at least
 * every 40 ms): every PCR due in [at, at + duration) is left out, the
 * adaptation field keeping its size, and PCR-only packets become null
 * packets. The PCRs after the gap keep their exact CBR values.
 */
export const pcrGapFault: FaultKind = {
  kind: 'pcr-gap',
  summary: `no PCR for durationMs (default ${DEFAULT_PCR_GAP_MS} ms): a PCR gap at the first PCR after it`,
  create(spec, layout): FaultInjector {
    const pid = pcrPid(spec, layout);
    const gap = new GapWindow(pid, spec.atSeconds, faultGapMs(spec, DEFAULT_PCR_GAP_MS, layout.pcrIntervalMs, 'PCR'));
    let truth: InjectedFault | null = null;
    return {
      omitsPcr: (p, t) => gap.covers(p, t),
      onPacket(info) {
        if (!truth && gap.omitted > 0 && info.hasPcr && info.pid === pid) {
          truth = faultAt(spec, info, { observation: 'pcr', interval: 'gap' }, { gapMs: gap.gapMs, omittedPcrs: gap.omitted });
        }
        return 'keep';
      },
      result: () => truth,
      pendingReason: () => (gap.omitted === 0 ? `no PCR on PID ${hex(pid)} was due in the gap` : 'no PCR after the gap before the end'),
    };
  },
};

function pcrJump(kind: 'pcr-jump-backward' | 'pcr-jump-forward', sign: -1 | 1): FaultKind {
  const direction = sign < 0 ? 'back' : 'forward';
  return {
    kind,
    summary: `every PCR from the time on is ${direction} by amountMs (default ${DEFAULT_PCR_JUMP_MS} ms), no discontinuity_indicator`,
    create(spec, layout): FaultInjector {
      const pid = pcrPid(spec, layout);
      const amountMs = spec.amountMs ?? DEFAULT_PCR_JUMP_MS;
      const shift27MHz = sign * Math.round((amountMs / 1000) * PCR_HZ);
      let truth: InjectedFault | null = null;
      return {
        pcrShift27MHz: (p, t) => (p === pid && t >= spec.atSeconds ? shift27MHz : 0),
        onPacket(info) {
          if (!truth && info.hasPcr && info.pid === pid && info.slotSeconds >= spec.atSeconds) {
            truth = faultAt(spec, info, { observation: 'pcr', interval: kind === 'pcr-jump-backward' ? 'jump-backward' : 'jump-forward' }, {
              shift27MHz,
            });
          }
          return 'keep';
        },
        result: () => truth,
        pendingReason: () => `no PCR on PID ${hex(pid)} at or after ${spec.atSeconds} s`,
      };
    },
  };
}

/** ISO 13818-1 2.4.3.5: PCR values move back without a discontinuity_indicator. */
export const pcrJumpBackwardFault = pcrJump('pcr-jump-backward', -1);
/** ISO 13818-1 2.4.3.5: PCR values move forward without a discontinuity_indicator. */
export const pcrJumpForwardFault = pcrJump('pcr-jump-forward', 1);
