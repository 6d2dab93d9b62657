/**
 * The median of the last `capacity` values: the rate check's estimate of a
 * KLV PID's period when the rules give none. A median, because a dropout
 * (one very long interval) or a burst of jitter must not move it. Typed
 * arrays, so that a push moves numbers (a memmove), never allocates.
 */
export class RollingMedian {
  /** The values in arrival order, a ring: `next` is where the newest goes (and the oldest is, once full). */
  private readonly ring: Float64Array;
  /** The same values, sorted, in the first `count` slots. */
  private readonly sorted: Float64Array;
  private next = 0;
  private count = 0;

  constructor(private readonly capacity: number) {
    this.ring = new Float64Array(capacity);
    this.sorted = new Float64Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  push(value: number): void {
    const sorted = this.sorted;
    if (this.count === this.capacity) {
      const oldest = this.ring[this.next];
      // A regular stream repeats its interval exactly (3003 PTS ticks at 29.97 Hz): a value replacing an
      // equal one leaves the sorted copy as it is.
      if (oldest === value) {
        this.next = (this.next + 1) % this.capacity;
        return;
      }
      const at = lowerBound(sorted, this.count, oldest);
      sorted.copyWithin(at, at + 1, this.count);
      this.count--;
    }
    this.ring[this.next] = value;
    this.next = (this.next + 1) % this.capacity;
    const at = lowerBound(sorted, this.count, value);
    sorted.copyWithin(at + 1, at, this.count);
    sorted[at] = value;
    this.count++;
  }

  /** The median (the mean of the two middle values for an even count), or null when empty. */
  median(): number | null {
    const n = this.count;
    if (n === 0) return null;
    const middle = n >> 1;
    return n % 2 === 1 ? this.sorted[middle] : (this.sorted[middle - 1] + this.sorted[middle]) / 2;
  }
}

/** First index below `length` whose value is >= `value`. */
function lowerBound(sorted: Float64Array, length: number, value: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
