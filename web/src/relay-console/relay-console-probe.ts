/**
 * What the console shows, as data, on `window.klvscopeRelayConsole`, for the
 * browser tests to compare against what the relay's REST interface returns.
 * The page writes it; nothing reads it but a test.
 */
import type { BitratePoint } from './bitrate-history.js';
import type { RelayPlatform, ServerStatusRecord, StreamBitrates, StreamDetection } from './relay-api.js';

export interface RelayConsoleProbe {
  signedIn: boolean;
  /** Messages of the feed (GET /api/events) taken in: one a second. */
  polls: number;
  platforms: RelayPlatform[];
  bitrates: StreamBitrates[];
  /** The sparklines' points, per channel. */
  sparklines: Record<string, BitratePoint[]>;
  detections: StreamDetection[];
  serverStatus: ServerStatusRecord | null;
  /** The code of the error on screen, if any. */
  errorCode: string | null;
}

export function emptyProbe(): RelayConsoleProbe {
  return { signedIn: false, polls: 0, platforms: [], bitrates: [], sparklines: {}, detections: [], serverStatus: null, errorCode: null };
}
