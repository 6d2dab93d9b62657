/**
 * What a hub (`serve --catalog`) answers about its live probes, as the
 * dashboard reads it: GET /probes, GET /sessions/{id} and the live channel's
 * fleet subscriptions (gateway/src/probe/probe-records.ts, which a browser
 * program cannot import). web/test/dashboard-probes.test.ts holds them
 * assignable from the gateway's, so a change there fails the typecheck here.
 */
import type { FrameKlvValues } from '@klvscope/core/browser';
import type { LiveFinding, LiveSessionState, LiveStatistics } from '../live/live-records.js';

interface FromProbe {
  /** The catalog row's number: one order across every probe; the live channel resumes from it. */
  id: number;
  probe: string;
  /** 1, one more each time a restarted probe resumed the session (its `seq` starts again at 1). */
  run: number;
}

export type ProbeFinding = LiveFinding & FromProbe;
export type ProbeStatistics = LiveStatistics & FromProbe;

/** A metadata packet's positions and angles: what the map needs of it. */
export interface ProbeTrackPoint extends FromProbe {
  seq: number;
  sessionId: string;
  pid: number;
  receivedAt: number | null;
  values: FrameKlvValues;
}

export type SessionLight = 'sound' | 'warning' | 'error' | 'silent' | 'offline' | 'ended';

export interface ProbeSessionView {
  sessionId: string;
  probe: string;
  source: string;
  /** 'unknown' while the probe is offline. */
  status: LiveSessionState['status'] | 'unknown';
  run: number;
  createdAt: string;
  updatedAt: string;
  stoppedAt: string | null;
  light: SessionLight;
  bitsPerSecond: number | null;
  /** The latest readings' bit rates, oldest first. */
  sparkline: number[];
  lastFinding: Pick<LiveFinding, 'checkId' | 'severity' | 'message' | 'receivedAt' | 'emittedAt' | 'count'> | null;
  state: LiveSessionState | null;
}

export interface ProbeView {
  name: string;
  host: string;
  pid: number;
  version: string;
  startedAt: string;
  lastHeartbeat: string;
  online: boolean;
  stoppedAt: string | null;
  bufferedBytes: number;
  bufferLimitBytes: number;
  dropped: Record<string, number>;
  sessions: ProbeSessionView[];
}
