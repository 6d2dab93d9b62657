/**
 * A point: one measurement or finding a check emits, located in the stream.
 * The detail endpoints list points; charts plot `value` against `t`.
 */
import type { Severity } from './observations.js';

/** Where a point is: any observation has these fields, so `ctx.point(obs, {...})` locates a point at it. */
export interface PointPosition {
  /** Stream time in seconds, or null when unknown. */
  readonly t: number | null;
  /** Byte offset of the TS packet (or KLV key) the point refers to. */
  readonly offset: number;
  /** 0-based TS packet index; -1 when the source is not TS or the point is not tied to a packet. */
  readonly packetIndex: number;
  /** PID concerned; -1 when none. */
  readonly pid: number;
}

/** What a check says at a position. */
export interface PointFinding {
  message: string;
  /** The measured value (an interval, a rate, a count); null or absent when the point measures nothing. */
  value?: number | null;
  /** Unit of `value` ('ms', 'kbit/s', 'packets'); null or absent when unitless. */
  unit?: string | null;
  /** Whether the point breaks a rule. Default false. */
  violation?: boolean;
  /** Default 'error' for a violation, 'info' otherwise. */
  severity?: Severity;
  /** The clause the rule comes from, e.g. 'ISO 13818-1 2.4.3.5' or 'TR 101 290 1.4'. */
  citation?: string | null;
  /** Stable name of the kind of point (e.g. 'continuity-error'), for filters such as mpegts-errors `types`. */
  type?: string;
}

/**
 * What a series of routine points share: the points a check emits for every
 * PCR, section, PES or KLV packet that break nothing, and differ only in
 * their position and value (`ctx.measure`). Made once per series (per PID,
 * say), not once per point.
 */
export interface PointSeries {
  /** The message of every point of the series (the value says the rest). */
  readonly message: string;
  /** Unit of the values; null or absent when unitless. */
  readonly unit?: string | null;
  /** As in PointFinding. */
  readonly citation?: string | null;
  /** As in PointFinding. */
  readonly type?: string;
}

export interface Point extends PointPosition {
  readonly value: number | null;
  readonly unit: string | null;
  readonly violation: boolean;
  readonly severity: Severity;
  readonly message: string;
  readonly citation: string | null;
  readonly type?: string;
}

/**
 * A finding's value, null when absent. Throws a TypeError for a non-finite
 * value: a NaN would poison the summary statistics, and inside a handler the
 * throw reports the check as failed.
 */
export function findingValue(finding: PointFinding): number | null {
  const value = finding.value ?? null;
  if (value !== null && !Number.isFinite(value)) throw new TypeError(`point value must be a finite number or null, got ${value}`);
  return value;
}

/** The value of a point of a series (`ctx.measure`): a finite number, never null (see findingValue). */
export function measuredValue(value: number): number {
  if (!Number.isFinite(value)) throw new TypeError(`measured value must be a finite number, got ${value}`);
  return value;
}

/** A finding's severity: as given, else 'error' for a violation and 'info' otherwise. */
export function findingSeverity(finding: PointFinding): Severity {
  return finding.severity ?? (finding.violation === true ? 'error' : 'info');
}

/** The point of a series (`ctx.measure`): its value, and what the series says (never a violation). */
export function makeSeriesPoint(at: PointPosition, series: PointSeries, value: number): Point {
  const point: { -readonly [K in keyof Point]: Point[K] } = {
    t: at.t,
    offset: at.offset,
    packetIndex: at.packetIndex,
    pid: at.pid,
    value: measuredValue(value),
    unit: series.unit ?? null,
    violation: false,
    severity: 'info',
    message: series.message,
    citation: series.citation ?? null,
  };
  if (series.type !== undefined) point.type = series.type;
  return point;
}

/**
 * Builds a point from a position and a finding. Copies only the point's
 * fields, so passing a whole observation as the position leaks nothing else.
 */
export function makePoint(at: PointPosition, finding: PointFinding): Point {
  const point: { -readonly [K in keyof Point]: Point[K] } = {
    t: at.t,
    offset: at.offset,
    packetIndex: at.packetIndex,
    pid: at.pid,
    value: findingValue(finding),
    unit: finding.unit ?? null,
    violation: finding.violation === true,
    severity: findingSeverity(finding),
    message: finding.message,
    citation: finding.citation ?? null,
  };
  if (finding.type !== undefined) point.type = finding.type;
  return point;
}
