/**
 * A probe session's light on the hub's overview (docs/fleet.md "Probes"):
 * what an operator reads at a glance, worst first.
 */
import type { SessionLight } from './probe-records.js';

/** A finding lights its session for this long after it arrived. */
export const LIGHT_WINDOW_MS = 30_000;

const ENDED: readonly string[] = ['stopped', 'replaced', 'failed', 'interrupted'];

export interface LightInput {
  /** A live session's status (LiveSessionStatus) as its probe wrote it. */
  status: string;
  probeOnline: boolean;
  /** When the hub last saw a finding of each severity of the session (ms since the epoch). */
  lastErrorAt: number | null;
  lastWarningAt: number | null;
  nowMs: number;
}

export function sessionLight(input: LightInput): SessionLight {
  if (input.status === 'failed') return 'error';
  if (ENDED.includes(input.status)) return 'ended';
  if (!input.probeOnline) return 'offline';
  if (input.status === 'waiting' || input.status === 'no-data') return 'silent';
  const recent = (at: number | null): boolean => at !== null && input.nowMs - at < LIGHT_WINDOW_MS;
  if (recent(input.lastErrorAt)) return 'error';
  if (recent(input.lastWarningAt)) return 'warning';
  return 'sound';
}

export function isEndedStatus(status: string): boolean {
  return ENDED.includes(status);
}
