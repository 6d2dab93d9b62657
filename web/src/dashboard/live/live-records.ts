/**
 * What the live channel (tRPC over WebSocket) and the live session endpoints
 * carry, as the live page reads them: the gateway's records
 * (gateway/src/live/live-records.ts), which a browser program cannot import.
 * web/test/dashboard-live.test.ts holds them assignable from the gateway's, so
 * a change there fails the typecheck here.
 */
import type { KlvItem } from '@klvscope/core/browser';

export type LiveSessionStatus = 'waiting' | 'receiving' | 'no-data' | 'stopped' | 'replaced' | 'failed' | 'interrupted';

export interface LiveFinding {
  seq: number;
  sessionId: string;
  checkId: string;
  /** Stream time in seconds, or null when unknown. */
  t: number | null;
  packetIndex: number;
  pid: number;
  value: number | null;
  unit: string | null;
  severity: 'info' | 'warning' | 'error';
  message: string;
  type?: string;
  /** Occurrences the record stands for (repeats within a second are folded into one record). */
  count: number;
  /** For the rest of a second: the record of its first occurrence. */
  repeatOf: number | null;
  /** When the bytes that revealed it arrived (ms since the epoch); null when no byte did. */
  receivedAt: number | null;
  lastReceivedAt: number | null;
  emittedAt: number;
}

export interface LiveMetadataPacket {
  seq: number;
  sessionId: string;
  pid: number;
  standard: string;
  timestampMicros: number | null;
  pts90kHz: number | null;
  items: KlvItem[];
  receivedAt: number | null;
}

export interface LiveStatistics {
  seq: number;
  sessionId: string;
  /** When the reading was taken (ms since the epoch). */
  at: number;
  status: LiveSessionStatus;
  bytesPerSecond: number;
  packetsPerSecond: number;
  bitsPerSecond: number;
  pids: Array<{ pid: number; packets: number; bitsPerSecond: number }>;
  klvPacketsPerSecond: number;
  continuityErrors: number;
  losses: { application: number; rtpPackets: number; socket: number };
  findings: number;
}

export interface LiveSessionState {
  sessionId: string;
  kind: 'live';
  status: LiveSessionStatus;
  source: string;
  checks: string[];
  createdAt: string;
  stoppedAt: string | null;
  error: string | null;
  /** `findings` counts occurrences; `records` what they were folded into. */
  counts: { findings: number; records: number; metadataPackets: number };
  statistics: LiveStatistics | null;
}

/** Whether a session has ended: its channel events stop, and the page offers to start another. */
export function hasEnded(status: LiveSessionStatus): boolean {
  return status !== 'waiting' && status !== 'receiving' && status !== 'no-data';
}
