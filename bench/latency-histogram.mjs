// Latencies in a fixed-size histogram (bins of 10 µs up to 500 ms, one bin for the rest, and the
// exact maximum), so that a benchmark keeps any number of samples in bounded memory.
const BIN_MS = 0.01;
const BINS = 50_000;

export class LatencyHistogram {
  counts = new Uint32Array(BINS + 1);
  count = 0;
  maxMs = -Infinity;
  minMs = Infinity;

  add(ms) {
    const bin = ms <= 0 ? 0 : Math.min(BINS, Math.floor(ms / BIN_MS));
    this.counts[bin]++;
    this.count++;
    if (ms > this.maxMs) this.maxMs = ms;
    if (ms < this.minMs) this.minMs = ms;
  }

  /** The upper edge of the bin holding quantile q (the maximum for the last bin): a bound good to 10 µs. */
  quantile(q) {
    if (this.count === 0) return NaN;
    const rank = Math.max(1, Math.ceil(q * this.count));
    let seen = 0;
    for (let bin = 0; bin <= BINS; bin++) {
      seen += this.counts[bin];
      if (seen >= rank) return bin === BINS ? this.maxMs : Math.min(this.maxMs, (bin + 1) * BIN_MS);
    }
    return this.maxMs;
  }

  summary() {
    return { count: this.count, p50: this.quantile(0.5), p99: this.quantile(0.99), max: this.count === 0 ? NaN : this.maxMs, min: this.count === 0 ? NaN : this.minMs };
  }
}
