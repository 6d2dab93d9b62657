/**
 * Where a drift began: given the drift of each packet since the baseline
 * started (d[i] in ms at stream time x[i] in s, ending with the first packet
 * beyond the limit), the onset is the packet after the hinge of the
 * best-fitting "flat, then a straight line" model
 *   d = a + b * max(0, x - x[h])     (least squares over every h)
 * so a clock that starts running fast, a step and a single bad time stamp
 * all put their onset on the first packet that is off. A linear model,
 * because a clock off by a constant rate (ppm) drifts linearly; flat before
 * it, because drift is measured from the baseline's start.
 */

/** Index (1 ≤ onset < x.length) of the first drifting packet; 0 when there is only one packet. */
export function driftOnsetIndex(x: ArrayLike<number>, d: ArrayLike<number>): number {
  const n = x.length;
  if (n < 2) return 0;
  let best = n - 1;
  let bestSse = Infinity;
  for (let h = 0; h < n - 1; h++) {
    const sse = hingeSse(x, d, h);
    // `<=`: of equally good hinges, the latest one (a step looks the same hinged at any earlier point only when noise-free and flat).
    if (sse <= bestSse) {
      bestSse = sse;
      best = h + 1;
    }
  }
  return best;
}

/** Residual sum of squares of the least-squares fit of d = a + b * max(0, x - x[h]). */
function hingeSse(x: ArrayLike<number>, d: ArrayLike<number>, h: number): number {
  const n = x.length;
  const xh = x[h];
  let su = 0;
  let suu = 0;
  let sd = 0;
  let sud = 0;
  let sdd = 0;
  for (let i = 0; i < n; i++) {
    const u = i > h ? Math.max(0, x[i] - xh) : 0;
    const di = d[i];
    su += u;
    suu += u * u;
    sd += di;
    sud += u * di;
    sdd += di * di;
  }
  const det = n * suu - su * su;
  if (det <= 0) return sdd - (sd * sd) / n;
  const b = (n * sud - su * sd) / det;
  const a = (sd - b * su) / n;
  return Math.max(0, sdd - a * sd - b * sud);
}
