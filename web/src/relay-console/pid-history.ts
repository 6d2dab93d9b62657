/**
 * Each channel's per-PID bitrates over time, for its detail page: the relay
 * keeps only the latest second per PID, so the page gathers the seconds the
 * feed brings from the moment it opened (up to five minutes).
 */
import { HISTORY_WINDOW_MS } from './bitrate-history.js';
import type { StreamBitrates } from './relay-api.js';

export interface PidReading {
  timeMs: number;
  /** Bits per second by PID in that second. */
  bitrates: ReadonlyMap<number, number>;
}

export type PidHistory = ReadonlyMap<string, readonly PidReading[]>;

export function mergePidReadings(kept: PidHistory, entries: readonly Pick<StreamBitrates, 'channelId' | 'time' | 'pids'>[]): PidHistory {
  const merged = new Map(kept);
  for (const entry of entries) {
    if (entry.time === null) continue;
    const timeMs = Date.parse(entry.time);
    const earlier = (kept.get(entry.channelId) ?? []).filter((r) => r.timeMs < timeMs && r.timeMs > timeMs - HISTORY_WINDOW_MS);
    merged.set(entry.channelId, [...earlier, { timeMs, bitrates: new Map(entry.pids.map((p) => [p.pid, p.bitrate])) }]);
  }
  return merged;
}
