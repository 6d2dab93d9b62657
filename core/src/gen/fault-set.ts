/**
 * The faults of one run: the injectors of the requested specs, asked
 * together by the multiplexer and the output stage, and the ground truth
 * they produce.
 */
import type { ElementaryStreamSource } from './elementary-stream-source.js';
import type { FaultInjector, FaultKind, PacketFate, StreamLayout } from './fault-injector.js';
import type { FaultSpec } from './fault-spec.js';
import { formatFaultSpec } from './fault-spec.js';
import type { InjectedFault } from './injected-fault.js';
import type { PacketInfo } from './packet-info.js';
import { GeneratorError } from './generator-error.js';

/** A requested fault with the kind that injects it; null when a source injects it itself. */
export interface ResolvedFault {
  spec: FaultSpec;
  kind: FaultKind | null;
}

/**
 * Resolves every spec to a kind in `kinds` (whose `create` checks it), or
 * else to a source that accepts it; throws GeneratorError ERR_FAULT_SPEC
 * when neither knows it. Done once per generator: sources are asked once.
 */
export function resolveFaults(
  specs: readonly FaultSpec[],
  kinds: readonly FaultKind[],
  layout: StreamLayout,
  sources: readonly ElementaryStreamSource[],
): ResolvedFault[] {
  return specs.map((spec) => {
    const kind = kinds.find((k) => k.kind === spec.kind);
    if (kind) {
      kind.create(spec, layout);
      return { spec, kind };
    }
    if (sources.some((s) => s.acceptFault?.(spec) === true)) return { spec, kind: null };
    const known = kinds.map((k) => k.kind).join(', ');
    throw new GeneratorError('ERR_FAULT_SPEC', `unknown fault kind '${spec.kind}' (known: ${known})`);
  });
}

interface Entry {
  spec: FaultSpec;
  injector: FaultInjector | null;
  /** For a fault a source injects: the ground truth once its unit is sent. */
  fromSource: InjectedFault | null;
}

export class FaultSet {
  private readonly entries: Entry[];
  private readonly injectors: FaultInjector[];
  private readonly packetWatchers: FaultInjector[];
  /** Whether any packet needs to be shown to an injector (false: the output stage skips the call). */
  readonly watchesPackets: boolean;

  /** Fresh injectors for one run. */
  constructor(faults: readonly ResolvedFault[], layout: StreamLayout) {
    this.entries = faults.map(({ spec, kind }) => ({ spec, injector: kind ? kind.create(spec, layout) : null, fromSource: null }));
    this.injectors = this.entries.flatMap((e) => (e.injector ? [e.injector] : []));
    this.packetWatchers = this.injectors.filter((i) => i.onPacket !== undefined);
    this.watchesPackets = this.packetWatchers.length > 0 || this.entries.some((e) => e.injector === null);
  }

  // Every injector is asked (no short-circuit): each one counts what it removed.

  omitsPcr(pid: number, slotSeconds: number): boolean {
    let omit = false;
    for (const i of this.injectors) if (i.omitsPcr?.(pid, slotSeconds)) omit = true;
    return omit;
  }

  pcrShift27MHz(pid: number, slotSeconds: number): number {
    let shift = 0;
    for (const i of this.injectors) shift += i.pcrShift27MHz?.(pid, slotSeconds) ?? 0;
    return shift;
  }

  omitsTable(pid: number, slotSeconds: number): boolean {
    let omit = false;
    for (const i of this.injectors) if (i.omitsTable?.(pid, slotSeconds)) omit = true;
    return omit;
  }

  corruptsTableCrc(pid: number, slotSeconds: number): boolean {
    let corrupt = false;
    for (const i of this.injectors) if (i.corruptsTableCrc?.(pid, slotSeconds)) corrupt = true;
    return corrupt;
  }

  omitsPts(pid: number, slotSeconds: number): boolean {
    let omit = false;
    for (const i of this.injectors) if (i.omitsPts?.(pid, slotSeconds)) omit = true;
    return omit;
  }

  /**
   * Shows one written packet to the injectors in spec order; the first that
   * drops or repeats it decides, and the later ones do not see a dropped
   * packet. Records faults that sources marked in their units.
   */
  onPacket(info: PacketInfo, bytes: Uint8Array, syncPos: number): PacketFate {
    const mark = info.sourceFault;
    if (mark !== null) {
      const entry = this.entries.find((e) => e.injector === null && e.fromSource === null && e.spec.kind === mark.kind);
      if (entry) {
        entry.fromSource = {
          kind: mark.kind,
          pid: info.pid,
          packetIndex: info.outputIndex,
          offset: info.offset,
          atSeconds: mark.atSeconds,
          expect: mark.expect,
          ...(mark.details ? { details: mark.details } : {}),
        };
      }
    }
    let fate: PacketFate = 'keep';
    for (const injector of this.packetWatchers) {
      const f = (injector.onPacket as NonNullable<FaultInjector['onPacket']>)(info, bytes, syncPos);
      if (f !== 'keep' && fate === 'keep') {
        fate = f;
        if (f === 'drop') break;
      }
    }
    return fate;
  }

  /** The ground truth so far, in spec order (complete after `finish`). */
  results(): InjectedFault[] {
    return this.entries.flatMap((e) => {
      const r = e.injector ? e.injector.result() : e.fromSource;
      return r ? [r] : [];
    });
  }

  /** At the end of the stream: every fault must have been placed (GeneratorError ERR_FAULT_NOT_PLACED). */
  finish(): void {
    for (const e of this.entries) {
      const placed = e.injector ? e.injector.result() !== null : e.fromSource !== null;
      if (placed) continue;
      const why = e.injector ? e.injector.pendingReason() : 'its source sent no unit carrying it';
      throw new GeneratorError('ERR_FAULT_NOT_PLACED', `fault ${formatFaultSpec(e.spec)} could not be placed: ${why}`);
    }
  }
}
