/**
 * A check's summary, computed from its points as they are emitted (so the
 * statistics are whole even when kept points are capped or streamed away).
 */
import type { ObservationKind, Severity } from './observations.js';

export type Verdict = 'pass' | 'warn' | 'fail' | 'not-applicable';

export interface ValueStatistics {
  /** Points that carry a value. */
  count: number;
  min: number;
  max: number;
  mean: number;
  /** Unit of the first point with a value; null when unitless. */
  unit: string | null;
}

export interface CheckSummary {
  /** Observations the check received (of the kinds it consumes). */
  observations: number;
  points: number;
  violations: number;
  violationsBySeverity: Record<Severity, number>;
  /** Statistics over the points' values; null when no point has a value. */
  value: ValueStatistics | null;
  verdict: Verdict;
  reason: string;
}

/** The verdict a check chose itself (in `finish`, or `notApplicable` at any time). */
export interface VerdictOverride {
  verdict: Verdict;
  reason: string;
}

export class SummaryAccumulator {
  points = 0;
  private info = 0;
  private warning = 0;
  private error = 0;
  private valueCount = 0;
  private min = Infinity;
  private max = -Infinity;
  private sum = 0;
  private unit: string | null = null;

  /** Counts a point that breaks nothing and carries a value (a point of a series). */
  addMeasure(value: number, unit: string | null): void {
    this.points++;
    this.addValue(value, unit);
  }

  /** Counts one point, given by its parts (so that a point nobody reads need not be made). */
  add(value: number | null, unit: string | null, violation: boolean, severity: Severity): void {
    this.points++;
    if (violation) {
      if (severity === 'error') this.error++;
      else if (severity === 'warning') this.warning++;
      else this.info++;
    }
    if (value !== null) this.addValue(value, unit);
  }

  private addValue(value: number, unit: string | null): void {
    if (this.valueCount === 0) this.unit = unit;
    this.valueCount++;
    this.sum += value;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
  }

  /**
   * The verdict, unless the check chose one: not-applicable when it saw none
   * of its observations and said nothing; fail on any error-level violation,
   * warn on any warning-level one, pass otherwise (info-level violations are
   * remarks, not failures).
   */
  summarize(observations: number, consumes: readonly ObservationKind[], override: VerdictOverride | null): CheckSummary {
    const violations = this.error + this.warning + this.info;
    let verdict: Verdict;
    let reason: string;
    if (override) {
      ({ verdict, reason } = override);
    } else if (observations === 0 && this.points === 0) {
      verdict = 'not-applicable';
      reason = `no ${consumes.join(', ')} observations in the source`;
    } else if (this.error > 0) {
      verdict = 'fail';
      reason = describeViolations(violations, this.error, this.warning, this.info);
    } else if (this.warning > 0) {
      verdict = 'warn';
      reason = describeViolations(violations, this.error, this.warning, this.info);
    } else {
      verdict = 'pass';
      reason = violations === 0 ? 'no violations' : `no errors or warnings (${plural(this.info, 'info-level violation')})`;
    }
    return {
      observations,
      points: this.points,
      violations,
      violationsBySeverity: { info: this.info, warning: this.warning, error: this.error },
      value:
        this.valueCount === 0
          ? null
          : { count: this.valueCount, min: this.min, max: this.max, mean: this.sum / this.valueCount, unit: this.unit },
      verdict,
      reason,
    };
  }
}

function describeViolations(total: number, error: number, warning: number, info: number): string {
  const parts: string[] = [];
  if (error > 0) parts.push(`${error} error`);
  if (warning > 0) parts.push(`${warning} warning`);
  if (info > 0) parts.push(`${info} info`);
  return `${plural(total, 'violation')} (${parts.join(', ')})`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
