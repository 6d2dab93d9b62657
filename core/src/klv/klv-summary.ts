/** Per KLV PID: what `klvscope inspect` says about its metadata, folded from observations. */
import type { KlvErrorType, Observation, ObservationKind } from '../kernel/observations.js';

export interface KlvPidSummary {
  pid: number;
  carriage: 'sync' | 'async' | 'raw';
  packets: number;
  packetsWithPts: number;
  /** Standards seen, e.g. ['MISB ST 0601']. */
  standards: string[];
  /** ST 0601 item 65 values seen. */
  versions: number[];
  checksumFailures: number;
  /** Tags seen at least once, ascending. */
  itemsSeen: number[];
  firstTimestampMicros: number | null;
  lastTimestampMicros: number | null;
  problems: Partial<Record<KlvErrorType, number>>;
}

export class KlvSummaryBuilder {
  private readonly pids = new Map<number, KlvPidSummary & { tags: Set<number>; versionSet: Set<number>; standardSet: Set<string> }>();

  /** The observation kinds `observe` reads. */
  static readonly kinds: readonly ObservationKind[] = ['klv-packet', 'metadata-packet', 'klv-error'];

  observe(o: Observation): void {
    if (o.kind !== 'klv-packet' && o.kind !== 'metadata-packet' && o.kind !== 'klv-error') return;
    let s = this.pids.get(o.pid);
    if (!s) {
      s = {
        pid: o.pid,
        carriage: o.kind === 'klv-packet' ? o.carriage : 'async',
        packets: 0,
        packetsWithPts: 0,
        standards: [],
        versions: [],
        checksumFailures: 0,
        itemsSeen: [],
        firstTimestampMicros: null,
        lastTimestampMicros: null,
        problems: {},
        tags: new Set(),
        versionSet: new Set(),
        standardSet: new Set(),
      };
      this.pids.set(o.pid, s);
    }
    if (o.kind === 'klv-packet') {
      s.carriage = o.carriage;
      s.packets++;
      if (o.pts90kHz !== null) s.packetsWithPts++;
    } else if (o.kind === 'metadata-packet') {
      s.standardSet.add(o.standard);
      if (o.version !== null) s.versionSet.add(o.version);
      if (o.checksum && !o.checksum.valid) s.checksumFailures++;
      for (const item of o.items) s.tags.add(item.tag);
      if (o.timestampMicros !== null) {
        s.firstTimestampMicros ??= o.timestampMicros;
        s.lastTimestampMicros = o.timestampMicros;
      }
    } else {
      s.problems[o.type] = (s.problems[o.type] ?? 0) + 1;
    }
  }

  build(): KlvPidSummary[] {
    return [...this.pids.values()]
      .sort((a, b) => a.pid - b.pid)
      .map(({ tags, versionSet, standardSet, ...summary }) => ({
        ...summary,
        standards: [...standardSet],
        versions: [...versionSet].sort((a, b) => a - b),
        itemsSeen: [...tags].sort((a, b) => a - b),
      }));
  }
}
