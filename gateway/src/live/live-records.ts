/**
 * What a live session publishes (tRPC subscriptions, REST, its database):
 * findings, decoded metadata packets and statistics, each numbered by the
 * session in order (`seq`), and the session's own state.
 */
import type { MetadataPacketObservation, Point } from '@klvscope/core';
import type { LiveSourceStats } from '@klvscope/adapters';
import type { PidRate } from './pid-rate-meter.js';

/** The check id of findings about the source itself: losses, noise, silence. */
export const LIVE_SOURCE_CHECK_ID = 'live-source';

/**
 * A record of violations found live: a check's point, or a source event
 * under LIVE_SOURCE_CHECK_ID, standing for `count` occurrences of its kind
 * in one second (finding-coalescer.ts); the point is the first of them.
 */
export interface LiveFinding extends Point {
  seq: number;
  sessionId: string;
  checkId: string;
  /** Occurrences this record stands for: 1 for the first of its kind in a second, more for the rest of that second. */
  count: number;
  /** For the rest of a second: the record of the first occurrence; null for a first. */
  repeatOf: number | null;
  /** When the bytes that revealed it arrived (ms since the epoch, sub-ms precision); null when no byte did (silence, end of session). */
  receivedAt: number | null;
  /** When the bytes that revealed the last occurrence it counts arrived. */
  lastReceivedAt: number | null;
  /** When the session published it, on the same clock. */
  emittedAt: number;
}

export interface LiveMetadataPacket extends Omit<MetadataPacketObservation, 'kind'> {
  seq: number;
  sessionId: string;
  receivedAt: number | null;
}

export interface LiveStatistics {
  seq: number;
  sessionId: string;
  /** When the reading was taken (ms since the epoch). */
  at: number;
  /** The interval the rates are over, in seconds. */
  seconds: number;
  status: LiveSessionStatus;
  /** Payload bytes received from the source per second, whatever they carry (TS or raw KLV). */
  bytesPerSecond: number;
  /** TS packets per second: 0 on a raw KLV source, as are `bitsPerSecond` and `pids`. */
  packetsPerSecond: number;
  /** The bit rate of those TS packets (188 bytes each). */
  bitsPerSecond: number;
  pids: PidRate[];
  klvPacketsPerSecond: number;
  /** Since the session started. */
  continuityErrors: number;
  /** Datagrams or packets lost where we can see it: inside the application, RTP sequence gaps, the socket's drops. */
  losses: { application: number; rtpPackets: number; socket: number };
  /** Findings (occurrences) since the session started. */
  findings: number;
  source: LiveSourceStats;
}

/**
 * 'waiting': nothing received yet; 'receiving'; 'no-data': silent for the
 * configured time; 'stopped' by the user; 'replaced' by a newer session;
 * 'failed': the source broke (see `error`); 'interrupted': the service
 * ended without stopping it.
 */
export type LiveSessionStatus = 'waiting' | 'receiving' | 'no-data' | 'stopped' | 'replaced' | 'failed' | 'interrupted';

export interface LiveSessionState {
  sessionId: string;
  kind: 'live';
  status: LiveSessionStatus;
  source: string;
  format: 'ts' | 'klv';
  /** The checks running, by id. */
  checks: string[];
  createdAt: string;
  updatedAt: string;
  stoppedAt: string | null;
  error: string | null;
  /** `findings`, `bySeverity` and `byCheck` count occurrences, exactly; `records` the records they were folded into. */
  counts: { findings: number; records: number; metadataPackets: number; bySeverity: Record<string, number>; byCheck: Record<string, number> };
  /** The source's counters as of now: chunks and bytes received, losses, noise. */
  received: LiveSourceStats;
  /** The latest statistics reading, null before the first. */
  statistics: LiveStatistics | null;
}
