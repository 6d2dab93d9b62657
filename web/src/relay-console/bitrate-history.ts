/**
 * The last minute of each channel's input bitrate, for its sparkline: the
 * readings of GET /api/bitrates (one a second, each with its time), merged
 * poll after poll. A reading is kept once (by its time) whether it came as
 * the latest or inside `history`, which also fills a poll the page missed
 * (a throttled background tab) and the minute before the page opened.
 */
import type { StreamBitrates } from './relay-api.js';

export const SPARKLINE_WINDOW_MS = 60_000;

export interface BitratePoint {
  timeMs: number;
  bitsPerSecond: number;
}

/** Per channel, oldest first. */
export type BitrateHistory = ReadonlyMap<string, readonly BitratePoint[]>;

/**
 * The kept points with the new readings added; the window ends at the newest
 * reading of any channel (the relay's clock, not this machine's). A channel
 * no longer listed is dropped.
 */
export function mergeBitrates(kept: BitrateHistory, readings: readonly StreamBitrates[]): BitrateHistory {
  const newestMs = Math.max(...readings.map((r) => (r.time === null ? -Infinity : Date.parse(r.time))), ...[...kept.values()].map((points) => points.at(-1)?.timeMs ?? -Infinity));
  const merged = new Map<string, BitratePoint[]>();
  for (const reading of readings) {
    const byTime = new Map<number, number>();
    for (const point of kept.get(reading.channelId) ?? []) byTime.set(point.timeMs, point.bitsPerSecond);
    for (const earlier of reading.history) byTime.set(Date.parse(earlier.time), earlier.inputBitrate);
    if (reading.time !== null) byTime.set(Date.parse(reading.time), reading.inputBitrate);
    const points = [...byTime].filter(([timeMs]) => timeMs > newestMs - SPARKLINE_WINDOW_MS).map(([timeMs, bitsPerSecond]) => ({ timeMs, bitsPerSecond }));
    merged.set(reading.channelId, points.sort((a, b) => a.timeMs - b.timeMs));
  }
  return merged;
}
