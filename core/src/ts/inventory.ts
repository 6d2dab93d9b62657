/**
 * The inventory of a transport stream, folded from its observations:
 * programs, PIDs with their stream types and descriptors, packet, byte and
 * PES counts, duration and bitrates, and problem counts by type. This is
 * what `klvscope inspect` prints and the `analyze` stage stores.
 */
import type { Descriptor, Observation, ObservationKind, PidStatsObservation, TsErrorType } from '../kernel/observations.js';
import { NULL_PID } from './pid.js';
import { streamTypeName } from './stream-types.js';

export interface InventoryPid {
  pid: number;
  /** 'PAT', 'PMT', 'SI', 'null', an ES stream type name, or 'unreferenced'. */
  role: string;
  streamType: number | null;
  streamTypeName: string | null;
  descriptors: Descriptor[];
  packets: number;
  bytes: number;
  /** Bits per second over the duration; null when the duration is unknown. */
  bitrate: number | null;
  pesCount: number;
  pesWithPts: number;
  pesWithDts: number;
  pcrCount: number;
  continuityErrors: number;
  transportErrors: number;
  scrambledPackets: number;
}

export interface InventoryProgram {
  programNumber: number;
  pmtPid: number;
  pcrPid: number | null;
  descriptors: Descriptor[];
  streams: number[];
}

export interface Inventory {
  packetSize: number | null;
  totalPackets: number;
  totalBytes: number;
  /** Seconds covered by the source, from the PCR; null without PCR. */
  durationSeconds: number | null;
  /** Overall bitrate in bits per second; null without duration. */
  bitrate: number | null;
  transportStreamId: number | null;
  programs: InventoryProgram[];
  pids: InventoryPid[];
  errorCounts: Partial<Record<TsErrorType, number>>;
}

const SI_NAMES: Readonly<Record<number, string>> = { 0x01: 'CAT', 0x10: 'NIT', 0x11: 'SDT/BAT', 0x12: 'EIT', 0x13: 'RST', 0x14: 'TDT/TOT' };

export class InventoryBuilder {
  private transportStreamId: number | null = null;
  private readonly programs = new Map<number, InventoryProgram>();
  private readonly esByPid = new Map<number, { streamType: number; descriptors: Descriptor[] }>();
  private readonly stats = new Map<number, PidStatsObservation>();
  private readonly errorCounts: Partial<Record<TsErrorType, number>> = {};
  private timeBasePid = -1;
  private firstPcr: { offset: number; t: number } | null = null;
  private lastPcr: { offset: number; t: number } | null = null;
  private endOffset = 0;
  private endT: number | null = null;

  /** The observation kinds `observe` reads. */
  static readonly kinds: readonly ObservationKind[] = ['pat', 'pmt', 'pcr', 'ts-error', 'pid-stats'];

  observe(o: Observation): void {
    switch (o.kind) {
      case 'pat':
        this.transportStreamId = o.transportStreamId;
        for (const p of o.programs) {
          if (p.programNumber !== 0 && !this.programs.has(p.programNumber)) {
            this.programs.set(p.programNumber, { programNumber: p.programNumber, pmtPid: p.pid, pcrPid: null, descriptors: [], streams: [] });
          }
        }
        break;
      case 'pmt':
        this.programs.set(o.programNumber, {
          programNumber: o.programNumber,
          pmtPid: o.pid,
          pcrPid: o.pcrPid === NULL_PID ? null : o.pcrPid,
          descriptors: o.programDescriptors,
          streams: o.streams.map((s) => s.pid),
        });
        for (const s of o.streams) this.esByPid.set(s.pid, { streamType: s.streamType, descriptors: s.descriptors });
        break;
      case 'pcr':
        if (this.timeBasePid < 0) this.timeBasePid = o.pid;
        if (o.pid === this.timeBasePid && o.t !== null) {
          this.firstPcr ??= { offset: o.offset, t: o.t };
          this.lastPcr = { offset: o.offset, t: o.t };
        }
        break;
      case 'ts-error':
        this.errorCounts[o.type] = (this.errorCounts[o.type] ?? 0) + 1;
        break;
      case 'pid-stats':
        this.stats.set(o.pid, o);
        this.endOffset = o.offset;
        this.endT = o.t;
        break;
      default:
        break;
    }
  }

  build(packetSize: number | null): Inventory {
    const durationSeconds = this.duration();
    const pmtPids = new Set([...this.programs.values()].map((p) => p.pmtPid));
    const pidSet = new Set<number>([...this.stats.keys(), ...this.esByPid.keys()]);
    const pids = [...pidSet].sort((a, b) => a - b).map((pid) => this.pidEntry(pid, pmtPids, durationSeconds));
    const totalPackets = pids.reduce((n, p) => n + p.packets, 0);
    return {
      packetSize,
      totalPackets,
      totalBytes: this.endOffset,
      durationSeconds,
      bitrate: durationSeconds ? (this.endOffset * 8) / durationSeconds : null,
      transportStreamId: this.transportStreamId,
      programs: [...this.programs.values()].sort((a, b) => a.programNumber - b.programNumber),
      pids,
      errorCounts: this.errorCounts,
    };
  }

  /** From the first PCR to the end of the data, plus the bytes before the first PCR at the same byte rate. */
  private duration(): number | null {
    const first = this.firstPcr;
    const last = this.lastPcr;
    if (!first || !last || this.endT === null || last.t <= first.t) return null;
    const bytesPerSecond = (last.offset - first.offset) / (last.t - first.t);
    return this.endT + first.offset / bytesPerSecond;
  }

  private pidEntry(pid: number, pmtPids: Set<number>, durationSeconds: number | null): InventoryPid {
    const s = this.stats.get(pid);
    const es = this.esByPid.get(pid);
    const packets = s?.packets ?? 0;
    return {
      pid,
      role: roleOf(pid, pmtPids, es?.streamType),
      streamType: es?.streamType ?? null,
      streamTypeName: es ? streamTypeName(es.streamType) : null,
      descriptors: es?.descriptors ?? [],
      packets,
      bytes: s?.bytes ?? 0,
      bitrate: durationSeconds ? (packets * 188 * 8) / durationSeconds : null,
      pesCount: s?.pesCount ?? 0,
      pesWithPts: s?.pesWithPts ?? 0,
      pesWithDts: s?.pesWithDts ?? 0,
      pcrCount: s?.pcrCount ?? 0,
      continuityErrors: s?.continuityErrors ?? 0,
      transportErrors: s?.transportErrors ?? 0,
      scrambledPackets: s?.scrambledPackets ?? 0,
    };
  }
}

function roleOf(pid: number, pmtPids: Set<number>, streamType: number | undefined): string {
  if (pid === 0) return 'PAT';
  if (pmtPids.has(pid)) return 'PMT';
  if (pid === NULL_PID) return 'null';
  if (streamType !== undefined) return streamTypeName(streamType);
  return SI_NAMES[pid] ?? 'unreferenced';
}
