/**
 * Intervals between successive events of one series (a PID, a table), in
 * stream time, as points: the shape shared by the interval checks.
 */
import type { CheckContext, PointPosition } from '@klvscope/core';

export interface IntervalRule {
  maxIntervalMs: number;
  citation: string;
  /** Stable point type, e.g. 'pcr-interval'. */
  type: string;
  /** What the series is, for messages: 'PCR on PID 0x0100'. */
  what: (key: number) => string;
}

/** Remembers the last event time per series key and emits one point per interval. */
export class IntervalPoints {
  private readonly last = new Map<number, number>();
  /** `what(key)` once per series: messages are built for every point. */
  private readonly labels = new Map<number, string>();

  constructor(
    private readonly ctx: CheckContext,
    private readonly rule: IntervalRule,
  ) {}

  /** An event of series `key` at `at` (its `t` in seconds; events without a time are skipped). */
  event(key: number, at: PointPosition): void {
    if (at.t === null) return;
    const previous = this.last.get(key);
    this.last.set(key, at.t);
    if (previous === undefined) return;
    const intervalMs = (at.t - previous) * 1000;
    const violation = intervalMs > this.rule.maxIntervalMs;
    let label = this.labels.get(key);
    if (label === undefined) this.labels.set(key, (label = this.rule.what(key)));
    this.ctx.point(at, {
      message: violation ? `${label}: ${intervalMs.toFixed(1)} ms since the previous one, more than ${this.rule.maxIntervalMs} ms` : label,
      value: intervalMs,
      unit: 'ms',
      violation,
      citation: this.rule.citation,
      type: this.rule.type,
    });
  }

  /** Whether any event was seen. */
  get seen(): boolean {
    return this.last.size > 0;
  }
}

const PID_TEXT: string[] = [];

/** A PID as 0x0100 (cached: checks name PIDs in every point's message). */
export function hexPid(pid: number): string {
  return (PID_TEXT[pid & 0x1fff] ??= `0x${pid.toString(16).toUpperCase().padStart(4, '0')}`);
}

/** Messages made once per PID, for the points that break nothing (checks emit one for every event). */
export class PidLabels {
  private readonly labels = new Map<number, string>();
  constructor(private readonly make: (pid: string) => string) {}
  get(pid: number): string {
    let label = this.labels.get(pid);
    if (label === undefined) this.labels.set(pid, (label = this.make(hexPid(pid))));
    return label;
  }
}
