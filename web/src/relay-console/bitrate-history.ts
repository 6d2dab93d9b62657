/**
 * Each channel's input bitrate over the last five minutes, for its
 * sparkline (the last minute) and its detail page (all five): the readings
 * the feed sends (one a second, each with its time), merged message after
 * message. A reading is kept once (by its time) whether it came as the
 * latest or inside `history`, which also brings the five minutes before the
 * page opened. Channels the message does not mention keep their points.
 */
import type { StreamBitrates } from './relay-api.js';

export const SPARKLINE_WINDOW_MS = 60_000;
/** What the relay keeps (HISTORY_SECONDS), and what the detail page's chart spans. */
export const HISTORY_WINDOW_MS = 300_000;

export interface BitratePoint {
  timeMs: number;
  bitsPerSecond: number;
}

/** Per channel, oldest first. */
export type BitrateHistory = ReadonlyMap<string, readonly BitratePoint[]>;

/** The kept points with the new readings of `entries` added; the window ends at the newest reading of any channel (the relay's clock, not this machine's). */
export function mergeReadings(kept: BitrateHistory, entries: readonly Pick<StreamBitrates, 'channelId' | 'time' | 'inputBitrate' | 'history'>[]): BitrateHistory {
  const merged = new Map(kept);
  for (const entry of entries) {
    const byTime = new Map<number, number>();
    for (const point of kept.get(entry.channelId) ?? []) byTime.set(point.timeMs, point.bitsPerSecond);
    for (const earlier of entry.history) byTime.set(Date.parse(earlier.time), earlier.inputBitrate);
    if (entry.time !== null) byTime.set(Date.parse(entry.time), entry.inputBitrate);
    merged.set(entry.channelId, [...byTime].map(([timeMs, bitsPerSecond]) => ({ timeMs, bitsPerSecond })).sort((a, b) => a.timeMs - b.timeMs));
  }
  const newestMs = newestReadingMs(merged);
  for (const [channelId, points] of merged) merged.set(channelId, points.filter((p) => p.timeMs > newestMs - HISTORY_WINDOW_MS));
  return merged;
}

/** Only the channels still listed (a deleted channel's points go with it). */
export function keepChannels(history: BitrateHistory, channelIds: ReadonlySet<string>): BitrateHistory {
  return new Map([...history].filter(([channelId]) => channelIds.has(channelId)));
}

export function newestReadingMs(history: BitrateHistory): number {
  return Math.max(0, ...[...history.values()].map((points) => points.at(-1)?.timeMs ?? 0));
}

/** The points of the window of `windowMs` ending at `endMs`. */
export function pointsWithin(points: readonly BitratePoint[], endMs: number, windowMs: number): readonly BitratePoint[] {
  return points.filter((p) => p.timeMs > endMs - windowMs);
}
