/**
 * State per KLV series, a series being a PID and the standard of its sets
 * (the time checks follow each on its own). Keyed PID first, then standard,
 * so that finding a series builds no key string for every packet; the last
 * series found is kept at hand, since a stream usually carries one.
 */
export class KlvSeriesMap<T> {
  private readonly byPid = new Map<number, Map<string, T>>();
  private lastPid = -1;
  private lastStandard = '';
  private last: T | null = null;

  constructor(private readonly make: (pid: number, standard: string) => T) {}

  /** The series of this PID and standard, made on first use. */
  get(pid: number, standard: string): T {
    if (pid === this.lastPid && standard === this.lastStandard && this.last !== null) return this.last;
    let byStandard = this.byPid.get(pid);
    if (byStandard === undefined) this.byPid.set(pid, (byStandard = new Map<string, T>()));
    let series = byStandard.get(standard);
    if (series === undefined) byStandard.set(standard, (series = this.make(pid, standard)));
    this.lastPid = pid;
    this.lastStandard = standard;
    this.last = series;
    return series;
  }

  /** Every series, by PID in order of first use, then by standard. */
  values(): T[] {
    return [...this.byPid.values()].flatMap((byStandard) => [...byStandard.values()]);
  }
}
