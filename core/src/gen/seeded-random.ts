/**
 * A small deterministic pseudo-random source (mulberry32): the same seed
 * gives the same stream on every platform, so a generated stream and its
 * ground truth are reproducible from the seed alone.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    // Mix the seed so that nearby seeds give unrelated sequences.
    this.state = Math.imul((seed | 0) ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A number in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** An independent sequence for one consumer (e.g. one PID), derived from this one's seed and `label`. */
  fork(label: number): SeededRandom {
    return new SeededRandom(Math.imul(this.state ^ label, 0x27d4eb2d) ^ label);
  }
}
