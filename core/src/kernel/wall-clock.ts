/**
 * Wall-clock time as a service, so jobs, sessions and timestamps can be
 * tested with a fixed clock. (Stream time is another matter: see ts/clock.ts.)
 */

export interface WallClock {
  /** Milliseconds since the Unix epoch. */
  nowMs(): number;
  /** A monotonic millisecond counter, for durations and rates. */
  monotonicMs(): number;
}

export const systemClock: WallClock = Object.freeze({
  nowMs: (): number => Date.now(),
  monotonicMs: (): number => performance.now(),
});
