/**
 * Faults of the program specific information (ISO 13818-1 2.4.4): a PAT or
 * PMT missing for a while, and a section with a wrong CRC_32.
 */
import type { FaultInjector, FaultKind, StreamLayout } from './fault-injector.js';
import type { FaultSpec } from './fault-spec.js';
import type { InjectedFault } from './injected-fault.js';
import { PAT_PID } from './pat-section-writer.js';
import { checkFaultTime, faultAt, faultGapMs, faultPid, GapWindow, hex } from './fault-spec-checks.js';

export const DEFAULT_TABLE_GAP_MS = 1000;

/**
 * Every repetition of the table due in [at, at + duration) is replaced by
 * null packets; its PID's continuity counter is not advanced, so nothing but
 * the gap shows (TR 101 290 1.3.a / 1.5.a: PAT and PMT at least every 0.5 s).
 */
function tableGap(kind: 'pat-gap' | 'pmt-gap', table: 'PAT' | 'PMT'): FaultKind {
  return {
    kind,
    summary: `no ${table} for durationMs (default ${DEFAULT_TABLE_GAP_MS} ms): seen at the first ${table} after it`,
    create(spec: FaultSpec, layout: StreamLayout): FaultInjector {
      checkFaultTime(spec, layout);
      const pid = table === 'PAT' ? faultPid(spec, PAT_PID, [PAT_PID], 'the PAT PID') : faultPid(spec, layout.pmtPid, [layout.pmtPid], 'the PMT PID');
      const intervalMs = table === 'PAT' ? layout.patIntervalMs : layout.pmtIntervalMs;
      const gap = new GapWindow(pid, spec.atSeconds, faultGapMs(spec, DEFAULT_TABLE_GAP_MS, intervalMs, table));
      let truth: InjectedFault | null = null;
      return {
        omitsTable: (p, t) => gap.covers(p, t),
        onPacket(info) {
          if (!truth && gap.omitted > 0 && info.pid === pid && info.tableStart) {
            truth = faultAt(spec, info, { observation: 'psi-section' }, { gapMs: gap.gapMs, omittedSections: gap.omitted });
          }
          return 'keep';
        },
        result: () => truth,
        pendingReason: () => (gap.omitted === 0 ? `no ${table} was due in the gap` : `no ${table} after the gap before the end`),
      };
    },
  };
}

export const patGapFault = tableGap('pat-gap', 'PAT');
export const pmtGapFault = tableGap('pmt-gap', 'PMT');

/**
 * ISO 13818-1 Annex A: one PAT (default) or PMT section whose CRC_32 does not
 * match (its last byte inverted); TR 101 290 2.2.
 */
export const psiCrcFault: FaultKind = {
  kind: 'psi-crc',
  summary: 'one PAT (or, with pid=<PMT PID>, PMT) section with a wrong CRC_32',
  create(spec, layout): FaultInjector {
    checkFaultTime(spec, layout);
    const pid = faultPid(spec, PAT_PID, [PAT_PID, layout.pmtPid], 'a PAT or PMT PID');
    let armed = false;
    let truth: InjectedFault | null = null;
    return {
      corruptsTableCrc(p, t) {
        if (armed || p !== pid || t < spec.atSeconds) return false;
        armed = true;
        return true;
      },
      onPacket(info) {
        if (armed && !truth && info.pid === pid && info.tableStart) {
          truth = faultAt(spec, info, { observation: 'ts-error', type: 'psi-crc-error' });
        }
        return 'keep';
      },
      result: () => truth,
      pendingReason: () => `no section on PID ${hex(pid)} at or after ${spec.atSeconds} s`,
    };
  },
};
