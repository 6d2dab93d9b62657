/**
 * Bitrate readings averaged over a trailing window: each point becomes the
 * mean of the readings of the `windowMs` ending at it, so a bursty sender's
 * one-second readings read as its rate over five or thirty seconds.
 */
import type { BitratePoint } from './bitrate-history.js';

export function rollingMean(points: readonly BitratePoint[], windowMs: number): BitratePoint[] {
  if (windowMs <= 1000) return [...points];
  const out: BitratePoint[] = [];
  let from = 0;
  let sum = 0;
  points.forEach((point, i) => {
    sum += point.bitsPerSecond;
    while (points[from].timeMs <= point.timeMs - windowMs) sum -= points[from++].bitsPerSecond;
    out.push({ timeMs: point.timeMs, bitsPerSecond: sum / (i - from + 1) });
  });
  return out;
}
