/**
 * What a probe publishes through the catalog and the hub hands on (the tRPC
 * live channel's fleet subscriptions, GET /probes): a live session's
 * records, each named with its probe and with `id`, the catalog row's
 * number, by which a follower resumes, across hub restarts too.
 */
import type { FrameKlvValues } from '@klvscope/core/browser';
import type { LiveFinding, LiveSessionState, LiveStatistics } from '../live/live-records.js';

interface FromProbe {
  /** The catalog row's number: one order across every probe (postgres-probes.ts). */
  id: number;
  probe: string;
  /** The session's run: 1, one more each time a restarted probe resumed it (its `seq` starts again at 1). */
  run: number;
}

export type ProbeFinding = LiveFinding & FromProbe;
export type ProbeStatistics = LiveStatistics & FromProbe;

/** A decoded metadata packet's positions and angles: what the map and the tiles need of it. */
export interface TrackPoint {
  seq: number;
  sessionId: string;
  pid: number;
  receivedAt: number | null;
  values: FrameKlvValues;
}

export type ProbeTrackPoint = TrackPoint & FromProbe;

/**
 * A session's light on the hub's overview: 'offline' when its probe is,
 * 'ended' once stopped, 'silent' while nothing arrives, else the worst
 * severity of its findings in the last LIGHT_WINDOW_MS ('sound' for none).
 */
export type SessionLight = 'sound' | 'warning' | 'error' | 'silent' | 'offline' | 'ended';

/** A probe session as the hub shows it. */
export interface ProbeSessionView {
  sessionId: string;
  probe: string;
  source: string;
  /** The session's status as its probe last wrote it, or 'unknown' while the probe is offline. */
  status: LiveSessionState['status'] | 'unknown';
  run: number;
  createdAt: string;
  updatedAt: string;
  stoppedAt: string | null;
  light: SessionLight;
  /** The latest reading's TS bit rate (0 for raw KLV), null before the first. */
  bitsPerSecond: number | null;
  /** The latest readings' bit rates, oldest first: the tile's sparkline. */
  sparkline: number[];
  lastFinding: Pick<LiveFinding, 'checkId' | 'severity' | 'message' | 'receivedAt' | 'emittedAt' | 'count'> | null;
  /** The session's state as its probe last wrote it: counts, the source's counters, the latest statistics. */
  state: LiveSessionState | null;
}

export interface ProbeView {
  name: string;
  host: string;
  pid: number;
  version: string;
  startedAt: string;
  lastHeartbeat: string;
  /** The heartbeat is younger than OFFLINE_AFTER_MS and the probe has not stopped. */
  online: boolean;
  stoppedAt: string | null;
  /** What the probe holds that the database has not received yet (it was unreachable), and its bound. */
  bufferedBytes: number;
  bufferLimitBytes: number;
  /** Records the probe had to drop (its buffer was full), by kind, since it started. */
  dropped: Record<string, number>;
  sessions: ProbeSessionView[];
}

/** The statuses of a session that a restarted probe takes up again. */
export const RESUMED_STATUSES: readonly string[] = ['waiting', 'receiving', 'no-data', 'interrupted'];
