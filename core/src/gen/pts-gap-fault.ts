/**
 * PES packets without PTS for a while (ISO 13818-1 2.4.3.7: PTS_DTS_flags
 * '00'). The header keeps its size with stuffing bytes, so the packet layout
 * is a clean run's.
 */
import type { FaultInjector, FaultKind } from './fault-injector.js';
import type { InjectedFault } from './injected-fault.js';
import { checkFaultTime, faultAt, faultGapMs, faultPid, GapWindow, hex } from './fault-spec-checks.js';

export const DEFAULT_PTS_GAP_MS = 1000;

export const ptsGapFault: FaultKind = {
  kind: 'pts-gap',
  summary: `video PES without PTS for durationMs (default ${DEFAULT_PTS_GAP_MS} ms): seen at the first PES with a PTS after it`,
  create(spec, layout): FaultInjector {
    checkFaultTime(spec, layout);
    const pid = faultPid(spec, layout.videoPid, layout.elementaryPids, 'an elementary stream PID');
    // Any gap that covers one frame removes a PTS; `pendingReason` says so when none does.
    const gap = new GapWindow(pid, spec.atSeconds, faultGapMs(spec, DEFAULT_PTS_GAP_MS, 0, 'PES'));
    let truth: InjectedFault | null = null;
    return {
      omitsPts: (p, t) => gap.covers(p, t),
      onPacket(info) {
        if (!truth && gap.omitted > 0 && info.pid === pid && info.pesStart && info.pesHasPts) {
          truth = faultAt(spec, info, { observation: 'pes' }, { gapMs: gap.gapMs, pesWithoutPts: gap.omitted });
        }
        return 'keep';
      },
      result: () => truth,
      pendingReason: () => (gap.omitted === 0 ? `no PES with a PTS started on PID ${hex(pid)} in the gap` : 'no PES with a PTS after the gap'),
    };
  },
};
