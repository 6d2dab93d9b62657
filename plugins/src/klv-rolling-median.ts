/**
 * The median of the last `capacity` values: the rate check's estimate of a
 * KLV PID's period when the rules give none. A median, because a dropout
 * (one very long interval) or a burst of jitter must not move it.
 */
export class RollingMedian {
  /** Values in arrival order (the oldest is removed first). */
  private readonly fifo: number[] = [];
  /** The same values, sorted. */
  private readonly sorted: number[] = [];

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.fifo.length;
  }

  push(value: number): void {
    if (this.fifo.length === this.capacity) {
      const oldest = this.fifo.shift() as number;
      this.sorted.splice(lowerBound(this.sorted, oldest), 1);
    }
    this.fifo.push(value);
    this.sorted.splice(lowerBound(this.sorted, value), 0, value);
  }

  /** The median (the mean of the two middle values for an even count), or null when empty. */
  median(): number | null {
    const n = this.sorted.length;
    if (n === 0) return null;
    const middle = n >> 1;
    return n % 2 === 1 ? this.sorted[middle] : (this.sorted[middle - 1] + this.sorted[middle]) / 2;
  }
}

/** First index whose value is >= `value`. */
function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
