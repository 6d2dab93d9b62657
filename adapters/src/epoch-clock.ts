/**
 * Milliseconds since the epoch with sub-millisecond steps: the clock of
 * arrival times (`LiveChunk.receivedAt`) and of everything compared with
 * them. `performance.timeOrigin + performance.now()` alone drifts away from
 * the system clock as the system clock is slewed (measured: several ms
 * within a minute), so two processes would disagree; this one follows the
 * monotonic clock and re-anchors on the system clock once a second when
 * they differ by more than a millisecond.
 */
const RECHECK_MS = 1_000;
const TOLERANCE_MS = 1;

let anchorWall = Date.now();
let anchorMonotonic = performance.now();
let checkedAt = anchorMonotonic;

export function epochNow(): number {
  const monotonic = performance.now();
  if (monotonic - checkedAt >= RECHECK_MS) {
    checkedAt = monotonic;
    const wall = Date.now();
    if (Math.abs(anchorWall + (monotonic - anchorMonotonic) - wall) > TOLERANCE_MS) {
      anchorWall = wall;
      anchorMonotonic = monotonic;
    }
  }
  return anchorWall + (monotonic - anchorMonotonic);
}
